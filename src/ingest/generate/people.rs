//! People: founders, CEOs, executives and employees of companies; partners and
//! staff of firms; pure angels with no employer.
//!
//! Person `k` of company `n` has id `uuid5("person", "gen:<seed>:c<n>:<k>")`;
//! `k = 0` is always a founder (and usually the CEO). Firm people are
//! `f<f>:<k>`, the first `partners` of them partners (the people named on the
//! firm's deals); pure angels are `a<a>`. Ids are computable from those keys,
//! so deals can name partners and angels without holding people in memory.
//!
//! Histories list the most recent entry first: the current job
//! (`is_current`, `company_id` = the company or firm) then 0–5 earlier, ended
//! jobs at well-known employers, other generated companies or firms, or
//! unknown startups; education has 0–4 entries from a list of real
//! universities.

use uuid::Uuid;

use super::companies;
use super::firms::phone;
use super::rng::{Rng, Stream};
use super::vocab;
use super::world::{recent_date, CompanyFacts, FirmFacts, World, YEAR};
use crate::schema::ids::slugify;
use crate::schema::{Date, EducationRow, EmploymentRow, PersonRole, PersonRow};

/// Share of companies whose first founder also invests as an angel.
const FOUNDER_ANGELS: f64 = 0.035;
/// Share of firm partners who also invest as angels.
const PARTNER_ANGELS: f64 = 0.10;

/// How likely each kind of person is to have each contact.
#[derive(Clone, Copy)]
struct Contacts {
    linkedin: f64,
    email: f64,
    phone: f64,
    twitter: f64,
    crunchbase: f64,
}

const FOUNDER: Contacts = Contacts {
    linkedin: 0.85,
    email: 0.5,
    phone: 0.15,
    twitter: 0.35,
    crunchbase: 0.35,
};
const EMPLOYEE: Contacts = Contacts {
    linkedin: 0.7,
    email: 0.2,
    phone: 0.05,
    twitter: 0.12,
    crunchbase: 0.05,
};
const INVESTOR: Contacts = Contacts {
    linkedin: 0.9,
    email: 0.45,
    phone: 0.2,
    twitter: 0.45,
    crunchbase: 0.5,
};

/// The current job of a person being generated.
struct Job<'a> {
    title: String,
    roles: Vec<PersonRole>,
    employer: Employer<'a>,
    start: Date,
    contacts: Contacts,
}

#[derive(Clone, Copy)]
enum Employer<'a> {
    Company(&'a CompanyFacts),
    Firm(&'a FirmFacts),
}

impl Employer<'_> {
    /// A job at this employer (dates and `is_current` are the caller's).
    fn entry(&self, title: &str, city: Option<&str>) -> EmploymentRow {
        let (id, name, permalink, domain) = match self {
            Employer::Company(c) => (c.id, &c.name, &c.permalink, &c.domain),
            Employer::Firm(f) => (f.id, &f.name, &f.permalink, &f.domain),
        };
        EmploymentRow {
            title: Some(title.to_string()),
            company_id: Some(id),
            company_name: Some(name.clone()),
            company_url: domain.as_ref().map(|d| format!("https://{d}")),
            linkedin_company_id: Some(permalink.clone()),
            location: city.map(str::to_string),
            ..EmploymentRow::default()
        }
    }

    fn city(&self) -> Option<u32> {
        match self {
            Employer::Company(c) => c.city,
            Employer::Firm(f) => f.city,
        }
    }

    fn domain(&self) -> Option<&str> {
        match self {
            Employer::Company(c) => c.domain.as_deref(),
            Employer::Firm(f) => f.domain.as_deref(),
        }
    }

    fn is_firm(&self) -> bool {
        matches!(self, Employer::Firm(_))
    }
}

/// Everyone working at company `n`.
pub fn company_people(world: &World, n: usize) -> Vec<PersonRow> {
    let Some(company) = companies::facts(world, n) else {
        return Vec::new();
    };
    let mut rng = Rng::for_entity(world.seed, Stream::CompanyPeople, n as u64);
    let jobs = company_jobs(world, &company, &mut rng);
    jobs.into_iter()
        .enumerate()
        .map(|(k, job)| person(world, world.company_person_id(n, k), job, &mut rng))
        .collect()
}

fn company_jobs<'a>(world: &World, company: &'a CompanyFacts, rng: &mut Rng) -> Vec<Job<'a>> {
    let size = company.headcount.map_or(1, |h| {
        crate::schema::Headcount::ALL
            .iter()
            .position(|x| *x == h)
            .unwrap_or(1)
    });
    let founders = 1 + rng.weighted(&[0.35, 0.40, 0.25]);
    let founder_is_ceo = rng.chance(0.85);
    let executives = poisson_ish(0.15 + 0.17 * size as f64, rng);
    let employees = poisson_ish(0.05 + 0.08 * size as f64, rng);
    let employer = Employer::Company(company);
    let mut jobs = Vec::new();
    let mut titles = vocab::FOUNDER_TITLES[1..].to_vec();
    for k in 0..founders {
        let ceo = k == 0 && founder_is_ceo;
        let title = if ceo {
            "CEO".to_string()
        } else {
            take_title(&mut titles, rng, "Co-Founder")
        };
        let roles = if ceo {
            vec![PersonRole::Founder, PersonRole::Ceo]
        } else {
            vec![PersonRole::Founder]
        };
        jobs.push(Job {
            title,
            roles,
            employer,
            start: company.born,
            contacts: FOUNDER,
        });
    }
    if !founder_is_ceo {
        let start = later(company.born, world.as_of, rng);
        jobs.push(Job {
            title: "CEO".into(),
            roles: vec![PersonRole::Ceo],
            employer,
            start,
            contacts: FOUNDER,
        });
    }
    let mut exec_titles = vocab::EXECUTIVE_TITLES.to_vec();
    for _ in 0..executives {
        let title = take_title(&mut exec_titles, rng, "Vice President");
        let start = later(company.born, world.as_of, rng);
        jobs.push(Job {
            title,
            roles: vec![PersonRole::KeyPerson],
            employer,
            start,
            contacts: EMPLOYEE,
        });
    }
    for _ in 0..employees {
        let title = rng
            .pick(vocab::EMPLOYEE_TITLES)
            .copied()
            .unwrap_or("Engineer")
            .to_string();
        let start = later(company.born, world.as_of, rng);
        jobs.push(Job {
            title,
            roles: vec![],
            employer,
            start,
            contacts: EMPLOYEE,
        });
    }
    jobs
}

/// Partners (named on deals) then staff of firm `f`.
pub fn firm_people(world: &World, f: usize) -> Vec<PersonRow> {
    let Some(firm) = world.firms.get(f) else {
        return Vec::new();
    };
    let mut rng = Rng::for_entity(world.seed, Stream::FirmPeople, f as u64);
    let floor = Date::from_ymd(1998, 1, 1).unwrap_or(Date(10_227));
    let mut out = Vec::new();
    for k in 0..(firm.partners + firm.staff) as usize {
        let title = if k == 0 {
            rng.pick(&["Managing Partner", "Founding Partner", "General Partner"])
                .copied()
                .unwrap_or("Partner")
        } else if k < firm.partners as usize {
            vocab::PARTNER_TITLES[rng.weighted(&[0.45, 0.25, 0.05, 0.0, 0.1, 0.15])]
        } else {
            rng.pick(vocab::FIRM_STAFF_TITLES)
                .copied()
                .unwrap_or("Associate")
        };
        // Partners joined long ago (they are named on deals back to 2005); staff recently.
        let start = if k < firm.partners as usize {
            recent_date(&mut rng, floor, Date(world.as_of.0 - 2 * YEAR), 1.0)
        } else {
            recent_date(
                &mut rng,
                Date(world.as_of.0 - 6 * YEAR),
                Date(world.as_of.0 - 60),
                1.5,
            )
        };
        let job = Job {
            title: title.to_string(),
            roles: vec![],
            employer: Employer::Firm(firm),
            start,
            contacts: INVESTOR,
        };
        out.push(person(world, world.firm_person_id(f, k), job, &mut rng));
    }
    out
}

/// A person who invests only as an angel: no current employer.
pub fn pure_angel(world: &World, a: usize) -> PersonRow {
    let mut rng = Rng::for_entity(world.seed, Stream::Angel, a as u64);
    let (first, last) = world.names.person_name(&mut rng);
    let city = world.places.sample_city(&mut rng).map(|c| c as u32);
    let retired = Date(world.as_of.0 - rng.range(YEAR as i64, 12 * YEAR as i64) as i32);
    let previous = rng.weighted(&[0.25, 0.35, 0.25, 0.15]);
    let employment = past_jobs(world, &mut rng, retired, previous, false);
    let career_start = employment
        .last()
        .and_then(|j| j.start_date)
        .unwrap_or(Date(retired.0 - rng.range(10, 30) as i32 * YEAR));
    let about = employment.first().filter(|_| rng.chance(0.6)).map(|j| {
        format!(
            "Angel investor. Previously {} at {}.",
            j.title.as_deref().unwrap_or("executive"),
            j.company_name.as_deref().unwrap_or("a startup")
        )
    });
    let mut row = contact_row(
        world,
        world.angel_id(a),
        (first, last),
        city,
        None,
        INVESTOR,
        &mut rng,
    );
    row.about = about;
    row.employment = employment;
    row.education = education(&mut rng, career_start);
    row
}

/// People who invest as angels, most active first: all pure angels, some
/// founders and some partners, interleaved by a seeded shuffle.
pub fn angel_pool(world: &World, pure_angels: usize) -> Vec<Uuid> {
    let mut pool: Vec<Uuid> = (0..pure_angels).map(|a| world.angel_id(a)).collect();
    for n in 0..world.companies {
        if Rng::for_entity(world.seed, Stream::AngelPool, n as u64).chance(FOUNDER_ANGELS) {
            pool.push(world.company_person_id(n, 0));
        }
    }
    for (f, firm) in world.firms.iter().enumerate() {
        for k in 0..firm.partners as usize {
            let key = (1u64 << 48) + (f as u64) * 64 + k as u64;
            if Rng::for_entity(world.seed, Stream::AngelPool, key).chance(PARTNER_ANGELS) {
                pool.push(world.firm_person_id(f, k));
            }
        }
    }
    let mut rng = Rng::for_entity(world.seed, Stream::AngelPool, u64::MAX);
    for i in (1..pool.len()).rev() {
        pool.swap(i, rng.index(i + 1));
    }
    pool
}

fn person(world: &World, id: Uuid, job: Job, rng: &mut Rng) -> PersonRow {
    let name = world.names.person_name(rng);
    let city = job.employer.city();
    let city_name = world.city_name(city);
    let previous = rng.weighted(&[0.2, 0.3, 0.22, 0.14, 0.09, 0.05]);
    let current = EmploymentRow {
        start_date: Some(job.start),
        is_current: true,
        ..job.employer.entry(&job.title, city_name)
    };
    let mut employment = vec![current];
    employment.extend(past_jobs(
        world,
        rng,
        job.start,
        previous,
        job.employer.is_firm(),
    ));
    let career_start = employment
        .last()
        .and_then(|j| j.start_date)
        .unwrap_or(job.start);
    let about = employment.get(1).filter(|_| rng.chance(0.3)).map(|prev| {
        let employer_name = employment[0].company_name.as_deref().unwrap_or_default();
        let prev_title = prev.title.as_deref().unwrap_or("worked");
        format!(
            "{} at {employer_name}. Previously {prev_title} at {}.",
            job.title,
            prev.company_name.as_deref().unwrap_or("a startup")
        )
    });
    let mut row = contact_row(
        world,
        id,
        name,
        city,
        job.employer.domain(),
        job.contacts,
        rng,
    );
    row.title = Some(job.title);
    row.about = about;
    row.roles = job.roles;
    row.employment = employment;
    row.education = education(rng, career_start);
    row
}

/// Name, profile URLs, e-mail, phone and place of a person.
fn contact_row(
    world: &World,
    id: Uuid,
    (first, last): (&str, &str),
    city: Option<u32>,
    domain: Option<&str>,
    p: Contacts,
    rng: &mut Rng,
) -> PersonRow {
    let tag = id.simple().to_string();
    let slug = slugify(&format!("{first} {last}"));
    let iso = world.country_iso(city);
    PersonRow {
        id,
        name: format!("{first} {last}"),
        linkedin_url: rng
            .chance(p.linkedin)
            .then(|| linkedin_url(&slug, &tag[..8], rng)),
        crunchbase_url: rng
            .chance(p.crunchbase)
            .then(|| format!("https://www.crunchbase.com/person/{slug}-{}", &tag[..8])),
        twitter_url: rng
            .chance(p.twitter)
            .then(|| twitter_url(&slug, &tag[..6], rng)),
        location: world.city_name(city).map(str::to_string),
        city: city
            .and_then(|c| world.places.cities.get(c as usize))
            .map(|c| c.trail.clone()),
        country_code: iso.map(str::to_string),
        email: rng.chance(p.email).then(|| email(&slug, domain, rng)),
        phone: rng.chance(p.phone).then(|| phone(iso.unwrap_or("US"), rng)),
        ..PersonRow::default()
    }
}

fn linkedin_url(slug: &str, tag: &str, rng: &mut Rng) -> String {
    match rng.weighted(&[0.65, 0.15, 0.1, 0.1]) {
        0 => format!("https://www.linkedin.com/in/{slug}-{tag}"),
        1 => format!("https://www.linkedin.com/in/{slug}-{tag}/"),
        2 => format!("linkedin.com/in/{slug}-{tag}"),
        _ => format!("https://linkedin.com/in/{}{tag}", slug.replace('-', "")),
    }
}

fn twitter_url(slug: &str, tag: &str, rng: &mut Rng) -> String {
    let base: String = slug.replace('-', "").chars().take(9).collect();
    let handle = format!("{base}{tag}");
    match rng.weighted(&[0.6, 0.3, 0.1]) {
        0 => format!("https://twitter.com/{handle}"),
        1 => format!("https://x.com/{handle}"),
        _ => format!("https://www.twitter.com/{handle}/"),
    }
}

fn email(slug: &str, domain: Option<&str>, rng: &mut Rng) -> String {
    let first = slug.split('-').next().unwrap_or(slug);
    match domain {
        Some(d) if rng.chance(0.8) => {
            if rng.chance(0.5) {
                format!("{first}@{d}")
            } else {
                format!("{}@{d}", slug.replacen('-', ".", 1))
            }
        }
        _ => {
            let host = rng
                .pick(&["gmail.com", "outlook.com", "proton.me", "yahoo.com"])
                .copied()
                .unwrap_or("gmail.com");
            format!("{}{}@{host}", slug.replace('-', "."), rng.below(100))
        }
    }
}

/// `count` earlier, ended jobs, most recent first, before `before`.
fn past_jobs(
    world: &World,
    rng: &mut Rng,
    before: Date,
    count: usize,
    investor: bool,
) -> Vec<EmploymentRow> {
    let mut out = Vec::new();
    let mut end = Date(before.0 - rng.range(1, 120) as i32);
    let floor = Date::from_ymd(1985, 1, 1).unwrap_or(Date(5_479));
    for _ in 0..count {
        let start = Date(end.0 - rng.range(300, 2_200) as i32);
        if start < floor {
            break;
        }
        let mut entry = past_employer(world, rng, investor);
        entry.start_date = Some(start);
        entry.end_date = Some(end);
        if rng.chance(0.15) {
            entry.description = Some(format!(
                "Led a team of {} across product and engineering.",
                rng.range(3, 40)
            ));
        }
        out.push(entry);
        end = Date(start.0 - rng.range(1, 90) as i32);
    }
    out
}

fn past_employer(world: &World, rng: &mut Rng, investor: bool) -> EmploymentRow {
    let weights: &[f64] = if investor {
        &[0.2, 0.2, 0.25, 0.35, 0.0]
    } else {
        &[0.45, 0.0, 0.35, 0.0, 0.2]
    };
    match rng.weighted(weights) {
        0 => known_employer(rng.pick(vocab::EMPLOYERS), rng, false),
        1 => other_firm(world, rng),
        2 => other_company(world, rng, investor),
        3 => known_employer(rng.pick(vocab::FINANCE_EMPLOYERS), rng, true),
        _ => EmploymentRow {
            title: Some(
                rng.pick(vocab::EMPLOYEE_TITLES)
                    .copied()
                    .unwrap_or("Engineer")
                    .to_string(),
            ),
            company_name: Some(world.names.company_name(&[], rng)),
            ..EmploymentRow::default()
        },
    }
}

fn known_employer(
    employer: Option<&(&str, &str, &str)>,
    rng: &mut Rng,
    finance: bool,
) -> EmploymentRow {
    let (name, linkedin, domain) = employer
        .copied()
        .unwrap_or(("Google", "google", "google.com"));
    let title = if finance {
        rng.pick(&[
            "Analyst",
            "Associate",
            "Vice President",
            "Engagement Manager",
        ])
        .copied()
        .unwrap_or("Associate")
    } else if rng.chance(0.7) {
        rng.pick(vocab::EMPLOYEE_TITLES)
            .copied()
            .unwrap_or("Engineer")
    } else {
        rng.pick(vocab::EXECUTIVE_TITLES)
            .copied()
            .unwrap_or("Director")
    };
    EmploymentRow {
        title: Some(title.to_string()),
        company_name: Some(name.to_string()),
        company_url: Some(format!("https://{domain}")),
        linkedin_company_id: Some(linkedin.to_string()),
        ..EmploymentRow::default()
    }
}

fn other_company(world: &World, rng: &mut Rng, founder_before: bool) -> EmploymentRow {
    let picked = (world.companies > 0).then(|| rng.index(world.companies));
    let Some(c) = picked.and_then(|n| companies::facts(world, n)) else {
        return known_employer(None, rng, false);
    };
    let title = if founder_before {
        rng.pick(&["Founder & CEO", "Co-Founder", "CTO"])
            .copied()
            .unwrap_or("Founder")
    } else {
        rng.pick(vocab::EMPLOYEE_TITLES)
            .copied()
            .unwrap_or("Engineer")
    };
    Employer::Company(&c).entry(title, None)
}

fn other_firm(world: &World, rng: &mut Rng) -> EmploymentRow {
    let Some(f) = rng.pick(&world.firms) else {
        return known_employer(None, rng, true);
    };
    let title = rng
        .pick(vocab::FIRM_STAFF_TITLES)
        .copied()
        .unwrap_or("Associate");
    Employer::Firm(f).entry(title, None)
}

/// 0–4 degrees, most recent first, all finished by the time the career
/// starts: a bachelor's first, graduate degrees after it.
fn education(rng: &mut Rng, career_start: Date) -> Vec<EducationRow> {
    let count = rng.weighted(&[0.2, 0.35, 0.3, 0.1, 0.05]);
    let mut out = Vec::new();
    let mut end_year = career_start.year() - rng.range(0, 1) as i32;
    for i in (0..count).rev() {
        let (degree, years) = if i == 0 {
            (rng.pick(&vocab::DEGREES[..3]).copied().unwrap_or("BSc"), 4)
        } else {
            (rng.pick(&vocab::DEGREES[3..]).copied().unwrap_or("MSc"), 2)
        };
        let school = vocab::SCHOOLS[rng.weighted(&school_weights())];
        out.push(EducationRow {
            school_name: Some(school.0.to_string()),
            school_id: Some(school.1.to_string()),
            school_url: rng.chance(0.3).then(|| format!("https://www.{}", school.2)),
            degree: Some(degree.to_string()),
            field_of_study: field_of_study(degree, rng),
            start_date: Some((end_year - years).to_string()),
            end_date: Some(end_year.to_string()),
            description: None,
        });
        end_year -= years + rng.range(0, 3) as i32;
    }
    out
}

fn field_of_study(degree: &str, rng: &mut Rng) -> Option<String> {
    match degree {
        "MBA" => None,
        "MD" => Some("Medicine".to_string()),
        "JD" => Some("Law".to_string()),
        _ => Some(
            rng.pick(vocab::FIELDS)
                .copied()
                .unwrap_or("Economics")
                .to_string(),
        ),
    }
}

/// Famous schools first: a gentle Zipf over the list order.
fn school_weights() -> Vec<f64> {
    (0..vocab::SCHOOLS.len())
        .map(|k| 1.0 / (k as f64 + 4.0))
        .collect()
}

/// An integer with the given mean: its floor plus a Bernoulli draw on the
/// fraction (a cheap, bounded stand-in for a Poisson draw).
fn poisson_ish(mean: f64, rng: &mut Rng) -> usize {
    let whole = mean.floor();
    let extra = rng.chance(mean - whole) as usize;
    whole as usize + extra
}

/// A start date between `from` and `to`.
fn later(from: Date, to: Date, rng: &mut Rng) -> Date {
    Date(rng.range(from.0 as i64, (to.0 - 30).max(from.0) as i64) as i32)
}

fn take_title(titles: &mut Vec<&str>, rng: &mut Rng, fallback: &str) -> String {
    if titles.is_empty() {
        return fallback.to_string();
    }
    titles.remove(rng.index(titles.len())).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::generate::world::small_world;

    #[test]
    fn company_people_start_with_a_founder_and_roles_match_titles() {
        let world = small_world(300, 20);
        for n in 0..world.companies {
            let people = company_people(&world, n);
            assert!(people[0].roles.contains(&PersonRole::Founder));
            assert_eq!(people[0].id, world.company_person_id(n, 0));
            let ceos = people
                .iter()
                .filter(|p| p.roles.contains(&PersonRole::Ceo))
                .count();
            assert_eq!(ceos, 1, "company {n}");
            for p in &people {
                assert_eq!(
                    p.roles.contains(&PersonRole::Ceo),
                    p.title.as_deref() == Some("CEO")
                );
                assert_eq!(
                    p.employment[0].company_id,
                    companies::facts(&world, n).map(|c| c.id)
                );
                assert!((1..=6).contains(&p.employment.len()) && p.education.len() <= 4);
            }
        }
    }

    #[test]
    fn firm_partners_come_first_and_work_at_the_firm() {
        let world = small_world(50, 30);
        for (f, firm) in world.firms.iter().enumerate() {
            let people = firm_people(&world, f);
            assert_eq!(people.len(), (firm.partners + firm.staff) as usize);
            assert_eq!(people[0].id, world.firm_person_id(f, 0));
            assert!(
                people
                    .iter()
                    .all(|p| p.employment[0].company_id == Some(firm.id)
                        && p.employment[0].is_current)
            );
            assert!(people[..firm.partners as usize].iter().all(|p| p
                .title
                .as_deref()
                .is_some_and(|t| t.contains("Partner") || t.contains("Managing"))));
        }
    }

    #[test]
    fn pure_angels_have_no_current_job_and_the_pool_mixes_kinds() {
        let world = small_world(2_000, 100);
        let angel = pure_angel(&world, 0);
        assert!(angel.employment.iter().all(|j| !j.is_current) && angel.roles.is_empty());
        let pool = angel_pool(&world, 60);
        assert_eq!(pool, angel_pool(&world, 60));
        assert!(pool.contains(&world.angel_id(59)));
        let founders = (0..2_000)
            .filter(|n| pool.contains(&world.company_person_id(*n, 0)))
            .count();
        assert!((30..120).contains(&founders), "{founders}");
    }
}
