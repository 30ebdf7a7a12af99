//! Plans (pricing tiers) and their monthly credit allowances.
//!
//! The spec documents a 200-credit sign-up grant (api-reference §1.2) and
//! leaves the per-tier monthly allowance unknown (§13), so the defaults below
//! are ours and every value can be overridden with [`Allowances::set`]. The
//! `api` plan is unmetered: it has no allowance and is never refused.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// A pricing tier. Wire names are snake_case (`pro_plus`), error details use
/// the marketing names (`Pro+`). Serde uses the wire names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    Trial,
    Pro,
    ProPlus,
    Enterprise,
    Api,
}

impl Plan {
    /// Every plan, in ascending tier order.
    pub const ALL: [Plan; 5] = [
        Plan::Trial,
        Plan::Pro,
        Plan::ProPlus,
        Plan::Enterprise,
        Plan::Api,
    ];

    /// The stored / wire name: `trial`, `pro`, `pro_plus`, `enterprise`, `api`.
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Trial => "trial",
            Plan::Pro => "pro",
            Plan::ProPlus => "pro_plus",
            Plan::Enterprise => "enterprise",
            Plan::Api => "api",
        }
    }

    /// Inverse of [`Plan::as_str`]; exact match only.
    pub fn parse(s: &str) -> Option<Plan> {
        Plan::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// The name shown to users, e.g. in `details.current_tier`.
    pub fn display_name(self) -> &'static str {
        match self {
            Plan::Trial => "Trial",
            Plan::Pro => "Pro",
            Plan::ProPlus => "Pro+",
            Plan::Enterprise => "Enterprise",
            Plan::Api => "API",
        }
    }
}

/// Monthly credit allowance per plan (`None` means unmetered), and the
/// monthly ceiling of semantic searches per plan (`None`: no ceiling).
#[derive(Debug, Clone)]
pub struct Allowances {
    monthly: HashMap<Plan, Option<u64>>,
    semantic: HashMap<Plan, Option<u64>>,
}

impl Default for Allowances {
    fn default() -> Self {
        let monthly = HashMap::from([
            (Plan::Trial, Some(200)),
            (Plan::Pro, Some(1_000)),
            (Plan::ProPlus, Some(5_000)),
            (Plan::Enterprise, Some(25_000)),
            (Plan::Api, None),
        ]);
        // The reference's example ceiling is 1,000 (a pro-sized account);
        // the others scale with the credit allowances.
        let semantic = HashMap::from([
            (Plan::Trial, Some(100)),
            (Plan::Pro, Some(1_000)),
            (Plan::ProPlus, Some(5_000)),
            (Plan::Enterprise, Some(25_000)),
            (Plan::Api, None),
        ]);
        Allowances { monthly, semantic }
    }
}

impl Allowances {
    /// Sets the monthly allowance of `plan` (`None` = unmetered).
    pub fn set(&mut self, plan: Plan, monthly: Option<u64>) {
        self.monthly.insert(plan, monthly);
    }

    /// The monthly allowance of `plan`; `None` means unmetered.
    pub fn get(&self, plan: Plan) -> Option<u64> {
        self.monthly.get(&plan).copied().flatten()
    }

    /// Sets the monthly semantic-search ceiling of `plan` (`None` = none).
    pub fn set_semantic(&mut self, plan: Plan, searches: Option<u64>) {
        self.semantic.insert(plan, searches);
    }

    /// The monthly semantic-search ceiling of `plan`; `None` means none.
    pub fn semantic(&self, plan: Plan) -> Option<u64> {
        self.semantic.get(&plan).copied().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for plan in Plan::ALL {
            assert_eq!(Plan::parse(plan.as_str()), Some(plan));
        }
        assert_eq!(Plan::parse("Pro"), None);
        assert_eq!(Plan::parse(""), None);
        assert_eq!(Plan::ProPlus.as_str(), "pro_plus");
        assert_eq!(Plan::ProPlus.display_name(), "Pro+");
        assert_eq!(Plan::Api.display_name(), "API");
    }

    #[test]
    fn serde_uses_the_wire_names() {
        for plan in Plan::ALL {
            let json = serde_json::to_string(&plan).unwrap();
            assert_eq!(json, format!("\"{}\"", plan.as_str()));
            assert_eq!(serde_json::from_str::<Plan>(&json).unwrap(), plan);
        }
        assert!(serde_json::from_str::<Plan>("\"ProPlus\"").is_err());
    }

    #[test]
    fn default_allowances_and_override() {
        let mut a = Allowances::default();
        assert_eq!(a.get(Plan::Trial), Some(200));
        assert_eq!(a.get(Plan::Pro), Some(1_000));
        assert_eq!(a.get(Plan::ProPlus), Some(5_000));
        assert_eq!(a.get(Plan::Enterprise), Some(25_000));
        assert_eq!(a.get(Plan::Api), None);
        a.set(Plan::Pro, Some(7));
        a.set(Plan::Trial, None);
        assert_eq!(a.get(Plan::Pro), Some(7));
        assert_eq!(a.get(Plan::Trial), None);
    }
}
