//! Industry rows: Crunchbase's 42 `category_code`s, YC's free `Categories`,
//! and the super categories we define to group them.
//!
//! * A Crunchbase code becomes an INDUSTRY with permalink `slugify(code)`
//!   (`games_video` → `games-video`) and the readable name of
//!   [`CRUNCHBASE_CATEGORIES`] (`cleantech` → "Clean Technology").
//! * A YC category reuses the Crunchbase industry when its slug equals the
//!   code's slug or the slug of the code's name (`E-Commerce` → `ecommerce`,
//!   `Enterprise Software` → `enterprise`, `Nanotechnology` → `nanotech`);
//!   otherwise it is an INDUSTRY of its own, `slugify(category)`, named as
//!   first spelt, placed in a super category only where [`YC_SUPER`] says
//!   the fit is obvious.
//! * The 13 super categories of [`CRUNCHBASE_CATEGORIES`] have permalink
//!   `slugify(name) + "-" + 4 hex digits of uuid5("super_category", name)`
//!   (`health-care-…`), so they never collide with an industry permalink;
//!   the code `other` belongs to none.

use std::collections::{BTreeMap, HashMap};

use crate::schema::ids::{slugify, uuid5};
use crate::schema::{IndustryRow, IndustryType};

use super::permalink::first_free;

/// Crunchbase `category_code` → (readable name, super category). The 13
/// super categories are the ones named here: Health Care, Software, Internet
/// Services, Mobile & Telecom, Hardware, Commerce & Shopping, Media &
/// Entertainment, Sales & Marketing, Finance & Real Estate, Energy &
/// Sustainability, Travel & Transportation, Education & Public Sector,
/// Professional Services.
pub(crate) const CRUNCHBASE_CATEGORIES: [(&str, &str, Option<&str>); 42] = [
    ("advertising", "Advertising", Some("Sales & Marketing")),
    ("analytics", "Analytics", Some("Software")),
    ("automotive", "Automotive", Some("Travel & Transportation")),
    ("biotech", "Biotech", Some("Health Care")),
    (
        "cleantech",
        "Clean Technology",
        Some("Energy & Sustainability"),
    ),
    ("consulting", "Consulting", Some("Professional Services")),
    ("design", "Design", Some("Professional Services")),
    ("ecommerce", "E-Commerce", Some("Commerce & Shopping")),
    ("education", "Education", Some("Education & Public Sector")),
    ("enterprise", "Enterprise Software", Some("Software")),
    ("fashion", "Fashion", Some("Commerce & Shopping")),
    ("finance", "Finance", Some("Finance & Real Estate")),
    (
        "games_video",
        "Games & Video",
        Some("Media & Entertainment"),
    ),
    (
        "government",
        "Government",
        Some("Education & Public Sector"),
    ),
    ("hardware", "Hardware", Some("Hardware")),
    ("health", "Health", Some("Health Care")),
    (
        "hospitality",
        "Hospitality",
        Some("Travel & Transportation"),
    ),
    ("legal", "Legal", Some("Professional Services")),
    ("local", "Local", Some("Commerce & Shopping")),
    ("manufacturing", "Manufacturing", Some("Hardware")),
    ("medical", "Medical", Some("Health Care")),
    ("messaging", "Messaging", Some("Mobile & Telecom")),
    ("mobile", "Mobile", Some("Mobile & Telecom")),
    ("music", "Music", Some("Media & Entertainment")),
    ("nanotech", "Nanotechnology", Some("Hardware")),
    (
        "network_hosting",
        "Network & Hosting",
        Some("Internet Services"),
    ),
    ("news", "News", Some("Media & Entertainment")),
    ("nonprofit", "Nonprofit", Some("Education & Public Sector")),
    ("other", "Other", None),
    ("pets", "Pets", Some("Commerce & Shopping")),
    (
        "photo_video",
        "Photo & Video",
        Some("Media & Entertainment"),
    ),
    (
        "public_relations",
        "Public Relations",
        Some("Sales & Marketing"),
    ),
    ("real_estate", "Real Estate", Some("Finance & Real Estate")),
    ("search", "Search", Some("Internet Services")),
    ("security", "Security", Some("Software")),
    ("semiconductor", "Semiconductors", Some("Hardware")),
    ("social", "Social", Some("Internet Services")),
    ("software", "Software", Some("Software")),
    ("sports", "Sports", Some("Media & Entertainment")),
    (
        "transportation",
        "Transportation",
        Some("Travel & Transportation"),
    ),
    ("travel", "Travel", Some("Travel & Transportation")),
    ("web", "Web", Some("Internet Services")),
];

/// YC category slug → super category, where the fit is obvious.
pub(crate) const YC_SUPER: &[(&str, &str)] = &[
    ("curated-web", "Internet Services"),
    ("internet", "Internet Services"),
    ("consumer-internet", "Internet Services"),
    ("social-media", "Internet Services"),
    ("social-network", "Internet Services"),
    ("file-sharing", "Internet Services"),
    ("web-hosting", "Internet Services"),
    ("web-development", "Internet Services"),
    ("cloud-computing", "Internet Services"),
    ("blogging-platforms", "Internet Services"),
    ("email", "Internet Services"),
    ("online-dating", "Internet Services"),
    ("saas", "Software"),
    ("paas", "Software"),
    ("big-data", "Software"),
    ("developer-tools", "Software"),
    ("open-source", "Software"),
    ("databases", "Software"),
    ("collaboration", "Software"),
    ("productivity", "Software"),
    ("predictive-analytics", "Software"),
    ("machine-learning", "Software"),
    ("enterprises", "Software"),
    ("hardware-software", "Hardware"),
    ("electronics", "Hardware"),
    ("robotics", "Hardware"),
    ("drones", "Hardware"),
    ("sensors", "Hardware"),
    ("devices", "Hardware"),
    ("computers", "Hardware"),
    ("chat", "Mobile & Telecom"),
    ("sms", "Mobile & Telecom"),
    ("wireless", "Mobile & Telecom"),
    ("telecommunications", "Mobile & Telecom"),
    ("telephony", "Mobile & Telecom"),
    ("voip", "Mobile & Telecom"),
    ("android", "Mobile & Telecom"),
    ("location-based-services", "Mobile & Telecom"),
    ("health-care", "Health Care"),
    ("health-and-wellness", "Health Care"),
    ("health-and-insurance", "Health Care"),
    ("health-care-services", "Health Care"),
    ("biotechnology", "Health Care"),
    ("life-sciences", "Health Care"),
    ("doctors", "Health Care"),
    ("physicians", "Health Care"),
    ("hospitals", "Health Care"),
    ("health-records", "Health Care"),
    ("dental", "Health Care"),
    ("fitness", "Health Care"),
    ("marketplaces", "Commerce & Shopping"),
    ("shopping", "Commerce & Shopping"),
    ("online-shopping", "Commerce & Shopping"),
    ("commerce", "Commerce & Shopping"),
    ("retail", "Commerce & Shopping"),
    ("auctions", "Commerce & Shopping"),
    ("gift-card", "Commerce & Shopping"),
    ("coupons", "Commerce & Shopping"),
    ("groceries", "Commerce & Shopping"),
    ("games", "Media & Entertainment"),
    ("video-games", "Media & Entertainment"),
    ("video", "Media & Entertainment"),
    ("audio", "Media & Entertainment"),
    ("photography", "Media & Entertainment"),
    ("photo-sharing", "Media & Entertainment"),
    ("media", "Media & Entertainment"),
    ("digital-media", "Media & Entertainment"),
    ("content", "Media & Entertainment"),
    ("publishing", "Media & Entertainment"),
    ("entertainment", "Media & Entertainment"),
    ("marketing", "Sales & Marketing"),
    ("sales-and-marketing", "Sales & Marketing"),
    ("lead-generation", "Sales & Marketing"),
    ("seo", "Sales & Marketing"),
    ("brand-marketing", "Sales & Marketing"),
    ("payments", "Finance & Real Estate"),
    ("financial-services", "Finance & Real Estate"),
    ("banking", "Finance & Real Estate"),
    ("credit-cards", "Finance & Real Estate"),
    ("insurance", "Finance & Real Estate"),
    ("trading", "Finance & Real Estate"),
    ("bitcoin", "Finance & Real Estate"),
    ("clean-energy", "Energy & Sustainability"),
    ("energy", "Energy & Sustainability"),
    ("sustainability", "Energy & Sustainability"),
    ("logistics", "Travel & Transportation"),
    ("shipping", "Travel & Transportation"),
    ("hotels", "Travel & Transportation"),
    ("cars", "Travel & Transportation"),
    ("tourism", "Travel & Transportation"),
    ("nonprofits", "Education & Public Sector"),
    ("non-profit", "Education & Public Sector"),
    ("charity", "Education & Public Sector"),
    ("colleges", "Education & Public Sector"),
    ("teachers", "Education & Public Sector"),
    ("human-resources", "Professional Services"),
    ("recruiting", "Professional Services"),
    ("employment", "Professional Services"),
    ("e-discovery", "Professional Services"),
    ("user-experience-design", "Professional Services"),
];

/// All industries and super categories seen so far.
#[derive(Debug, Default)]
pub(crate) struct Industries {
    keys: HashMap<(IndustryType, String), String>,
    rows: BTreeMap<String, IndustryRow>,
}

impl Industries {
    /// The INDUSTRY permalink of a Crunchbase `category_code` (`None` when blank).
    pub fn crunchbase(&mut self, code: &str) -> Option<String> {
        let slug = slugify(code);
        if slug.is_empty() {
            return None;
        }
        let known = CRUNCHBASE_CATEGORIES.iter().find(|(c, _, _)| *c == code);
        let name = known.map_or_else(|| title_case(code), |(_, name, _)| name.to_string());
        let supers = known
            .and_then(|(_, _, s)| *s)
            .map(|s| self.super_category(s))
            .into_iter()
            .collect();
        Some(self.industry(&slug, &name, supers))
    }

    /// The INDUSTRY permalink of a YC category (`None` when blank).
    pub fn yc(&mut self, category: &str) -> Option<String> {
        let slug = slugify(category);
        if slug.is_empty() {
            return None;
        }
        let same = |(code, name, _): &&(&str, &str, Option<&str>)| {
            slugify(code) == slug || slugify(name) == slug
        };
        if let Some((code, _, _)) = CRUNCHBASE_CATEGORIES.iter().find(same) {
            return self.crunchbase(code);
        }
        let supers = YC_SUPER
            .iter()
            .filter(|(s, _)| *s == slug)
            .map(|(_, name)| self.super_category(name))
            .collect();
        Some(self.industry(&slug, category.trim(), supers))
    }

    fn super_category(&mut self, name: &str) -> String {
        let hex = uuid5("super_category", name).simple().to_string();
        let base = format!("{}-{}", slugify(name), &hex[..4]);
        self.intern(IndustryType::SuperCategory, &base, name, Vec::new())
    }

    fn industry(&mut self, base: &str, name: &str, supers: Vec<String>) -> String {
        self.intern(IndustryType::Industry, base, name, supers)
    }

    fn intern(
        &mut self,
        kind: IndustryType,
        base: &str,
        name: &str,
        supers: Vec<String>,
    ) -> String {
        let key = (kind, base.to_string());
        if let Some(permalink) = self.keys.get(&key) {
            return permalink.clone();
        }
        let permalink = first_free(base, "industry", |p| self.rows.contains_key(p));
        let row = IndustryRow {
            permalink: permalink.clone(),
            name: name.to_string(),
            industry_type: kind,
            super_categories: supers,
        };
        self.rows.insert(permalink.clone(), row);
        self.keys.insert(key, permalink.clone());
        permalink
    }

    /// The rows, super categories first, each kind by permalink.
    pub fn into_rows(self) -> Vec<IndustryRow> {
        let (mut rows, industries): (Vec<_>, Vec<_>) = self
            .rows
            .into_values()
            .partition(|r| r.industry_type == IndustryType::SuperCategory);
        rows.extend(industries);
        rows
    }
}

/// `games_video` → `Games Video`, for codes missing from the table.
fn title_case(code: &str) -> String {
    let words = code.split(['_', '-', ' ']).filter(|w| !w.is_empty());
    let cap = |w: &str| {
        let mut chars = w.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect::<String>())
            .unwrap_or_default()
    };
    words.map(cap).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn tables_share_13_super_categories() {
        let supers: HashSet<_> = CRUNCHBASE_CATEGORIES
            .iter()
            .filter_map(|(_, _, s)| *s)
            .collect();
        assert_eq!(supers.len(), 13);
        assert!(YC_SUPER.iter().all(|(_, s)| supers.contains(s)));
        let codes: HashSet<_> = CRUNCHBASE_CATEGORIES
            .iter()
            .map(|(c, _, _)| slugify(c))
            .collect();
        assert_eq!(codes.len(), CRUNCHBASE_CATEGORIES.len());
    }

    #[test]
    fn crunchbase_codes_become_named_industries_in_a_super_category() {
        let mut i = Industries::default();
        assert_eq!(i.crunchbase("games_video").as_deref(), Some("games-video"));
        assert_eq!(i.crunchbase("biotech").as_deref(), Some("biotech"));
        assert_eq!(i.crunchbase("medical").as_deref(), Some("medical"));
        assert_eq!(i.crunchbase(""), None);
        let rows = i.into_rows();
        assert_eq!(rows.len(), 5, "{rows:?}");
        assert_eq!(rows[0].industry_type, IndustryType::SuperCategory);
        let health = rows.iter().find(|r| r.name == "Health Care").unwrap();
        assert_eq!(health.industry_type, IndustryType::SuperCategory);
        assert!(
            health.permalink.starts_with("health-care-")
                && health.permalink.len() == "health-care-".len() + 4
        );
        let biotech = rows.iter().find(|r| r.permalink == "biotech").unwrap();
        assert_eq!(biotech.name, "Biotech");
        assert_eq!(biotech.super_categories, vec![health.permalink.clone()]);
    }

    #[test]
    fn yc_categories_reuse_crunchbase_industries_by_slug_or_name() {
        let mut i = Industries::default();
        assert_eq!(i.yc("E-Commerce").as_deref(), Some("ecommerce"));
        assert_eq!(i.yc("Enterprise Software").as_deref(), Some("enterprise"));
        assert_eq!(i.yc("Software").as_deref(), Some("software"));
        assert_eq!(i.yc("Curated Web").as_deref(), Some("curated-web"));
        assert_eq!(
            i.yc("World Domination").as_deref(),
            Some("world-domination")
        );
        let rows = i.into_rows();
        let row = |p: &str| rows.iter().find(|r| r.permalink == p).unwrap().clone();
        assert_eq!(row("ecommerce").name, "E-Commerce");
        assert_eq!(row("curated-web").super_categories.len(), 1);
        assert!(row("world-domination").super_categories.is_empty());
        assert!(row(&row("software").super_categories[0]).name == "Software");
    }

    #[test]
    fn unknown_codes_get_a_title_case_name() {
        let mut i = Industries::default();
        assert_eq!(
            i.crunchbase("space_travel").as_deref(),
            Some("space-travel")
        );
        assert_eq!(i.into_rows()[0].name, "Space Travel");
    }
}
