//! Embedded word lists. The long lists live in `data/*.txt` (one entry per
//! line, `#` comments) and are parsed once; short closed lists are constants.
//! Nothing here is read at run time from disk, so a generated dump depends on
//! the seed and the binary only.

use std::sync::OnceLock;

const COMPANY_WORDS: &str = include_str!("data/company_words.txt");
const FIRM_WORDS: &str = include_str!("data/firm_words.txt");
const FIRST_NAMES: &str = include_str!("data/first_names.txt");
const LAST_NAMES: &str = include_str!("data/last_names.txt");

/// The non-comment, non-empty lines of an embedded list.
pub fn lines(text: &'static str) -> Vec<&'static str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

fn cached(
    cell: &'static OnceLock<Vec<&'static str>>,
    text: &'static str,
) -> &'static [&'static str] {
    cell.get_or_init(|| lines(text))
}

/// First words of real company names (brandable heads: "Lumina", "Acme").
pub fn company_words() -> &'static [&'static str] {
    static CELL: OnceLock<Vec<&'static str>> = OnceLock::new();
    cached(&CELL, COMPANY_WORDS)
}

/// First words of real investor-firm names ("Sequoia", "Accel").
pub fn firm_words() -> &'static [&'static str] {
    static CELL: OnceLock<Vec<&'static str>> = OnceLock::new();
    cached(&CELL, FIRM_WORDS)
}

pub fn first_names() -> &'static [&'static str] {
    static CELL: OnceLock<Vec<&'static str>> = OnceLock::new();
    cached(&CELL, FIRST_NAMES)
}

pub fn last_names() -> &'static [&'static str] {
    static CELL: OnceLock<Vec<&'static str>> = OnceLock::new();
    cached(&CELL, LAST_NAMES)
}

/// Suffixes any company may carry, whatever its sector.
pub const COMPANY_SUFFIXES: &[&str] = &[
    "Labs",
    "Technologies",
    "Systems",
    "AI",
    "Group",
    "Solutions",
    "Networks",
    "Digital",
    "Works",
    "HQ",
    "Inc",
];

/// Suffixes of firm names, the most common first.
pub const FIRM_SUFFIXES: &[&str] = &[
    "Ventures",
    "Capital",
    "Partners",
    "Venture Partners",
    "Fund",
    "Capital Partners",
    "Investments",
    "Growth",
    "Equity",
    "VC",
    "Holdings",
    "Angels",
];

/// Universities: name, `school_id` slug, web domain.
pub const SCHOOLS: &[(&str, &str, &str)] = &[
    ("Stanford University", "stanford-university", "stanford.edu"),
    ("Massachusetts Institute of Technology", "mit", "mit.edu"),
    ("Harvard University", "harvard-university", "harvard.edu"),
    (
        "University of California, Berkeley",
        "uc-berkeley",
        "berkeley.edu",
    ),
    (
        "Carnegie Mellon University",
        "carnegie-mellon-university",
        "cmu.edu",
    ),
    (
        "University of Pennsylvania",
        "university-of-pennsylvania",
        "upenn.edu",
    ),
    ("Columbia University", "columbia-university", "columbia.edu"),
    ("Cornell University", "cornell-university", "cornell.edu"),
    (
        "Princeton University",
        "princeton-university",
        "princeton.edu",
    ),
    ("Yale University", "yale-university", "yale.edu"),
    (
        "University of Michigan",
        "university-of-michigan",
        "umich.edu",
    ),
    (
        "University of Waterloo",
        "university-of-waterloo",
        "uwaterloo.ca",
    ),
    (
        "University of Toronto",
        "university-of-toronto",
        "utoronto.ca",
    ),
    ("University of Oxford", "university-of-oxford", "ox.ac.uk"),
    (
        "University of Cambridge",
        "university-of-cambridge",
        "cam.ac.uk",
    ),
    (
        "Imperial College London",
        "imperial-college-london",
        "imperial.ac.uk",
    ),
    (
        "London School of Economics",
        "london-school-of-economics",
        "lse.ac.uk",
    ),
    (
        "University College London",
        "university-college-london",
        "ucl.ac.uk",
    ),
    (
        "Indian Institute of Technology Bombay",
        "iit-bombay",
        "iitb.ac.in",
    ),
    (
        "Indian Institute of Technology Delhi",
        "iit-delhi",
        "iitd.ac.in",
    ),
    (
        "Indian Institute of Technology Madras",
        "iit-madras",
        "iitm.ac.in",
    ),
    (
        "Indian Institute of Science",
        "indian-institute-of-science",
        "iisc.ac.in",
    ),
    (
        "Indian Institute of Management Ahmedabad",
        "iim-ahmedabad",
        "iima.ac.in",
    ),
    (
        "Tsinghua University",
        "tsinghua-university",
        "tsinghua.edu.cn",
    ),
    ("Peking University", "peking-university", "pku.edu.cn"),
    (
        "National University of Singapore",
        "national-university-of-singapore",
        "nus.edu.sg",
    ),
    ("ETH Zürich", "eth-zurich", "ethz.ch"),
    ("EPFL", "epfl", "epfl.ch"),
    (
        "Technical University of Munich",
        "technical-university-of-munich",
        "tum.de",
    ),
    ("HEC Paris", "hec-paris", "hec.edu"),
    ("INSEAD", "insead", "insead.edu"),
    (
        "École Polytechnique",
        "ecole-polytechnique",
        "polytechnique.edu",
    ),
    (
        "Technion – Israel Institute of Technology",
        "technion",
        "technion.ac.il",
    ),
    ("Tel Aviv University", "tel-aviv-university", "tau.ac.il"),
    (
        "Universidade de São Paulo",
        "universidade-de-sao-paulo",
        "usp.br",
    ),
    (
        "University of Tokyo",
        "university-of-tokyo",
        "u-tokyo.ac.jp",
    ),
    (
        "Seoul National University",
        "seoul-national-university",
        "snu.ac.kr",
    ),
    ("KAIST", "kaist", "kaist.ac.kr"),
    (
        "University of Sydney",
        "university-of-sydney",
        "sydney.edu.au",
    ),
    (
        "University of Melbourne",
        "university-of-melbourne",
        "unimelb.edu.au",
    ),
    (
        "KTH Royal Institute of Technology",
        "kth-royal-institute-of-technology",
        "kth.se",
    ),
    ("Delft University of Technology", "tu-delft", "tudelft.nl"),
    ("Trinity College Dublin", "trinity-college-dublin", "tcd.ie"),
    (
        "University of Washington",
        "university-of-washington",
        "uw.edu",
    ),
    ("University of Texas at Austin", "ut-austin", "utexas.edu"),
    (
        "University of Illinois Urbana-Champaign",
        "uiuc",
        "illinois.edu",
    ),
    (
        "Georgia Institute of Technology",
        "georgia-tech",
        "gatech.edu",
    ),
    ("University of California, Los Angeles", "ucla", "ucla.edu"),
    ("University of Southern California", "usc", "usc.edu"),
    ("New York University", "new-york-university", "nyu.edu"),
    ("Duke University", "duke-university", "duke.edu"),
    (
        "Northwestern University",
        "northwestern-university",
        "northwestern.edu",
    ),
    (
        "University of Chicago",
        "university-of-chicago",
        "uchicago.edu",
    ),
    ("Brown University", "brown-university", "brown.edu"),
    ("Dartmouth College", "dartmouth-college", "dartmouth.edu"),
    (
        "California Institute of Technology",
        "caltech",
        "caltech.edu",
    ),
    ("The Wharton School", "wharton-school", "wharton.upenn.edu"),
    (
        "Harvard Business School",
        "harvard-business-school",
        "hbs.edu",
    ),
    (
        "Stanford Graduate School of Business",
        "stanford-gsb",
        "gsb.stanford.edu",
    ),
    ("Boston University", "boston-university", "bu.edu"),
    (
        "University of Wisconsin–Madison",
        "university-of-wisconsin-madison",
        "wisc.edu",
    ),
    ("Purdue University", "purdue-university", "purdue.edu"),
    ("McGill University", "mcgill-university", "mcgill.ca"),
    (
        "University of British Columbia",
        "university-of-british-columbia",
        "ubc.ca",
    ),
    (
        "University of Edinburgh",
        "university-of-edinburgh",
        "ed.ac.uk",
    ),
    ("King's College London", "kings-college-london", "kcl.ac.uk"),
    ("Sciences Po", "sciences-po", "sciencespo.fr"),
    ("Bocconi University", "bocconi-university", "unibocconi.it"),
    ("IE Business School", "ie-business-school", "ie.edu"),
    (
        "University of Lagos",
        "university-of-lagos",
        "unilag.edu.ng",
    ),
    (
        "University of Cape Town",
        "university-of-cape-town",
        "uct.ac.za",
    ),
    (
        "Universidad de Buenos Aires",
        "universidad-de-buenos-aires",
        "uba.ar",
    ),
    (
        "Tecnológico de Monterrey",
        "tecnologico-de-monterrey",
        "tec.mx",
    ),
    ("Zhejiang University", "zhejiang-university", "zju.edu.cn"),
    ("Fudan University", "fudan-university", "fudan.edu.cn"),
    ("BITS Pilani", "bits-pilani", "bits-pilani.ac.in"),
    ("Aalto University", "aalto-university", "aalto.fi"),
    (
        "University of Copenhagen",
        "university-of-copenhagen",
        "ku.dk",
    ),
];

/// Well-known employers: name, LinkedIn company id, domain.
pub const EMPLOYERS: &[(&str, &str, &str)] = &[
    ("Google", "google", "google.com"),
    ("Meta", "meta", "meta.com"),
    ("Microsoft", "microsoft", "microsoft.com"),
    ("Amazon", "amazon", "amazon.com"),
    ("Apple", "apple", "apple.com"),
    ("Stripe", "stripe", "stripe.com"),
    ("Salesforce", "salesforce", "salesforce.com"),
    ("Uber", "uber-com", "uber.com"),
    ("Airbnb", "airbnb", "airbnb.com"),
    ("Netflix", "netflix", "netflix.com"),
    ("LinkedIn", "linkedin", "linkedin.com"),
    ("Oracle", "oracle", "oracle.com"),
    ("IBM", "ibm", "ibm.com"),
    ("Intel", "intel-corporation", "intel.com"),
    ("NVIDIA", "nvidia", "nvidia.com"),
    ("Tesla", "tesla-motors", "tesla.com"),
    ("OpenAI", "openai", "openai.com"),
    ("Shopify", "shopify", "shopify.com"),
    ("Spotify", "spotify", "spotify.com"),
    ("Revolut", "revolutltd", "revolut.com"),
    ("Adyen", "adyen", "adyen.com"),
    ("SAP", "sap", "sap.com"),
    ("Siemens", "siemens", "siemens.com"),
    ("Infosys", "infosys", "infosys.com"),
    (
        "Tata Consultancy Services",
        "tata-consultancy-services",
        "tcs.com",
    ),
    ("Flipkart", "flipkart", "flipkart.com"),
    ("Alibaba Group", "alibaba-group", "alibabagroup.com"),
    ("Tencent", "tencent", "tencent.com"),
    ("ByteDance", "bytedance", "bytedance.com"),
    ("Samsung Electronics", "samsung-electronics", "samsung.com"),
    ("Mercado Libre", "mercadolibre", "mercadolibre.com"),
    ("Nubank", "nubank", "nubank.com.br"),
    ("Grab", "grabapp", "grab.com"),
    ("Atlassian", "atlassian", "atlassian.com"),
    ("Palantir", "palantir-technologies", "palantir.com"),
    ("Dropbox", "dropbox", "dropbox.com"),
    ("Twilio", "twilio-inc-", "twilio.com"),
    ("Square", "joinsquare", "squareup.com"),
    ("PayPal", "paypal", "paypal.com"),
    ("Genentech", "genentech", "gene.com"),
    ("Pfizer", "pfizer", "pfizer.com"),
    ("Johnson & Johnson", "johnson-&-johnson", "jnj.com"),
    ("Medtronic", "medtronic", "medtronic.com"),
    ("McKinsey & Company", "mckinsey", "mckinsey.com"),
    (
        "Boston Consulting Group",
        "boston-consulting-group",
        "bcg.com",
    ),
    ("Bain & Company", "bain-and-company", "bain.com"),
    ("Deloitte", "deloitte", "deloitte.com"),
    ("Accenture", "accenture", "accenture.com"),
];

/// Where investors worked before venture: name, LinkedIn company id, domain.
pub const FINANCE_EMPLOYERS: &[(&str, &str, &str)] = &[
    ("Goldman Sachs", "goldman-sachs", "goldmansachs.com"),
    ("Morgan Stanley", "morgan-stanley", "morganstanley.com"),
    ("J.P. Morgan", "jpmorgan", "jpmorgan.com"),
    ("McKinsey & Company", "mckinsey", "mckinsey.com"),
    (
        "Boston Consulting Group",
        "boston-consulting-group",
        "bcg.com",
    ),
    ("Bain & Company", "bain-and-company", "bain.com"),
    ("Blackstone", "the-blackstone-group", "blackstone.com"),
    ("KKR", "kkr", "kkr.com"),
    ("Credit Suisse", "credit-suisse", "credit-suisse.com"),
    ("Barclays", "barclays-bank", "barclays.com"),
    ("UBS", "ubs", "ubs.com"),
    ("Google", "google", "google.com"),
];

/// Titles of founders, the CEO first.
pub const FOUNDER_TITLES: &[&str] = &[
    "CEO",
    "CTO",
    "COO",
    "Chief Product Officer",
    "President",
    "Chief Scientist",
];

/// Titles of non-founder executives (`key_person` role).
pub const EXECUTIVE_TITLES: &[&str] = &[
    "CFO",
    "COO",
    "CMO",
    "Chief Revenue Officer",
    "VP Engineering",
    "VP Sales",
    "VP Marketing",
    "VP Product",
    "General Counsel",
    "Head of People",
    "Chief Medical Officer",
    "VP Operations",
];

/// Titles of employees without a role.
pub const EMPLOYEE_TITLES: &[&str] = &[
    "Software Engineer",
    "Senior Software Engineer",
    "Staff Engineer",
    "Product Manager",
    "Data Scientist",
    "Product Designer",
    "Account Executive",
    "Marketing Manager",
    "Customer Success Manager",
    "Engineering Manager",
    "Head of Sales",
    "Head of Operations",
    "Research Scientist",
    "Recruiter",
    "Sales Development Representative",
    "Operations Manager",
    "Financial Analyst",
    "Machine Learning Engineer",
];

/// Titles at investor firms: partners first (they are named on deals).
pub const PARTNER_TITLES: &[&str] = &[
    "Partner",
    "General Partner",
    "Managing Partner",
    "Founding Partner",
    "Managing Director",
    "Venture Partner",
];
pub const FIRM_STAFF_TITLES: &[&str] = &[
    "Principal",
    "Associate",
    "Analyst",
    "Operating Partner",
    "Platform Lead",
];

pub const DEGREES: &[&str] = &[
    "BSc", "BA", "BEng", "MSc", "MBA", "PhD", "MEng", "MA", "MD", "JD",
];
/// Fields of study of BSc/BA/MSc/PhD… degrees (MD and JD imply theirs).
pub const FIELDS: &[&str] = &[
    "Computer Science",
    "Electrical Engineering",
    "Economics",
    "Mathematics",
    "Physics",
    "Mechanical Engineering",
    "Business Administration",
    "Finance",
    "Biology",
    "Chemistry",
    "Statistics",
    "Design",
    "Public Policy",
    "Bioengineering",
    "Psychology",
    "Industrial Engineering",
    "Philosophy",
    "History",
    "Marketing",
];

/// `investment_stage` texts of firms, from seed-only to late stage.
pub const INVESTMENT_STAGES: &[&str] = &[
    "Seed",
    "Pre-Seed, Seed",
    "Seed, Series A",
    "Early Stage Venture",
    "Series A",
    "Early Stage Venture, Seed",
    "Series A, Series B",
    "Early Stage Venture, Late Stage Venture",
    "Early Stage Venture, Late Stage Venture, Seed",
    "Late Stage Venture",
    "Late Stage Venture, Private Equity",
    "Private Equity",
];

/// What a round's money is for (deal long descriptions).
pub const USES_OF_FUNDS: &[&str] = &[
    "expand its engineering team",
    "enter new markets in Europe and Asia",
    "accelerate product development",
    "grow its sales and marketing teams",
    "scale operations",
    "launch new products",
    "expand into the United States",
    "invest in research and development",
    "hire across go-to-market and engineering",
    "meet growing customer demand",
];

/// Outlets reporting rounds: host, and which companies they cover
/// (`""` = anywhere, else ISO country codes).
pub const OUTLETS: &[(&str, &str)] = &[
    ("techcrunch.com", ""),
    ("venturebeat.com", "US"),
    ("www.businesswire.com", ""),
    ("www.prnewswire.com", ""),
    ("www.axios.com", "US"),
    ("www.forbes.com", ""),
    ("www.reuters.com", ""),
    ("www.bloomberg.com", ""),
    (
        "sifted.eu",
        "GB DE FR NL SE ES IE CH DK FI NO IT PT PL EE AT BE",
    ),
    (
        "tech.eu",
        "GB DE FR NL SE ES IE CH DK FI NO IT PT PL EE AT BE",
    ),
    ("yourstory.com", "IN"),
    ("inc42.com", "IN"),
    ("www.techinasia.com", "SG ID VN TH MY CN HK JP KR"),
    ("www.bloomberglinea.com", "BR MX AR CO CL"),
    ("techcabal.com", "NG KE ZA EG"),
    ("www.calcalistech.com", "IL"),
    ("betakit.com", "CA"),
];

/// International dialling prefix by ISO country code (default `+1`).
pub fn dialling_code(iso2: &str) -> &'static str {
    match iso2 {
        "GB" => "+44",
        "IN" => "+91",
        "DE" => "+49",
        "FR" => "+33",
        "IL" => "+972",
        "CN" => "+86",
        "SG" => "+65",
        "BR" => "+55",
        "NL" => "+31",
        "SE" => "+46",
        "AU" => "+61",
        "ES" => "+34",
        "IE" => "+353",
        "CH" => "+41",
        "DK" => "+45",
        "FI" => "+358",
        "NO" => "+47",
        "JP" => "+81",
        "KR" => "+82",
        "HK" => "+852",
        "ID" => "+62",
        "MX" => "+52",
        "AR" => "+54",
        "CO" => "+57",
        "CL" => "+56",
        "NG" => "+234",
        "KE" => "+254",
        "ZA" => "+27",
        "AE" => "+971",
        "IT" => "+39",
        "PT" => "+351",
        "PL" => "+48",
        "EE" => "+372",
        "AT" => "+43",
        "BE" => "+32",
        "NZ" => "+64",
        "VN" => "+84",
        "TH" => "+66",
        "MY" => "+60",
        "TR" => "+90",
        "EG" => "+20",
        _ => "+1",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::ids::slugify;

    #[test]
    fn embedded_lists_are_large_and_clean() {
        assert!(company_words().len() > 10_000);
        assert!(firm_words().len() > 2_000);
        assert!(first_names().len() > 500 && last_names().len() > 800);
        for w in company_words().iter().chain(firm_words()) {
            assert!(
                !w.is_empty() && !w.contains(' ') && !slugify(w).is_empty(),
                "{w:?}"
            );
        }
    }

    #[test]
    fn school_ids_are_unique_slugs() {
        let mut ids: Vec<_> = SCHOOLS.iter().map(|s| s.1).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), SCHOOLS.len());
        assert!(ids.iter().all(|id| slugify(id) == *id));
    }

    #[test]
    fn titles_normalise_to_the_documented_keys() {
        let keys: Vec<String> = FOUNDER_TITLES
            .iter()
            .chain(EXECUTIVE_TITLES)
            .map(|t| slugify(t))
            .collect();
        for key in ["ceo", "cto", "vp-engineering"] {
            assert!(keys.iter().any(|k| k == key), "{key}");
        }
    }
}
