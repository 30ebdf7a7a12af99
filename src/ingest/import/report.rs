//! What an import read, joined and wrote, for the command line and for tests.

use std::fmt;

use crate::ingest::DumpCounts;

/// Rows read from one source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// `crunchbase-2013/rounds.csv.gz`
    pub name: String,
    pub rows: u64,
}

/// Crunchbase 2013: companies, acquisitions, rounds and the investor join.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrunchbaseStats {
    pub companies: u64,
    /// Companies set to `acquired` by `acquisitions.csv.gz` (not already so, not `ipo`).
    pub acquired_from_acquisitions: u64,
    /// Acquisition rows naming a company absent from `companies.csv.gz`.
    pub acquisitions_unknown_company: u64,
    /// `state_code`s missing from the state table (the state is left out).
    pub unknown_state_codes: u64,
    pub rounds: u64,
    /// Rounds naming a company absent from `companies.csv.gz` (skipped).
    pub rounds_unknown_company: u64,
    /// Rounds identical to an earlier one on (permalink, date, type, amount), dropped.
    pub duplicate_rounds: u64,
    pub edges: u64,
    /// Edges whose (company_name, funded_when) equals a raw round's (company_name, funded_at).
    pub edges_matched: u64,
    /// Raw round rows given at least one investor by the join.
    pub rounds_with_investor: u64,
    /// Edges whose investor name is empty or has no letter or digit (skipped).
    pub edges_empty_investor: u64,
    /// Deals written with at least one investor or angel.
    pub deals_with_investor: u64,
    /// Distinct investor names (by slug) of matched edges read as firms / as angels.
    pub investor_firms: u64,
    pub investor_angels: u64,
}

/// YC 2014: startups, the Crunchbase merge, batch deals and founders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct YcStats {
    pub startups: u64,
    /// Merged into the Crunchbase company with the slug of their Crunchbase URL.
    pub merged_by_crunchbase_url: u64,
    /// Without a Crunchbase URL, merged into the company with the slug of their name.
    pub merged_by_name_slug: u64,
    pub new_companies: u64,
    /// New companies whose slug was taken and got a `-yc` suffix.
    pub renamed_permalinks: u64,
    /// Batch deals written (Y Combinator, SEED, at the batch start).
    pub batch_deals: u64,
    /// Batch deals left out: Crunchbase already has a Y Combinator round that day.
    pub batch_deals_already_in_crunchbase: u64,
    /// `Headquarters (US State)` values not in the state table (the state is left out).
    pub unknown_states: u64,
    pub founder_rows: u64,
    /// Founder rows whose `Company` equals a startup's `Company` exactly.
    pub founders_matched: u64,
    /// Distinct people created or extended from matched founder rows.
    pub founder_people: u64,
}

/// The outcome of an import.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    pub files: Vec<SourceFile>,
    pub crunchbase: Option<CrunchbaseStats>,
    pub yc: Option<YcStats>,
    pub written: DumpCounts,
}

impl ImportReport {
    pub(crate) fn read(&mut self, name: &str, rows: u64) {
        self.files.push(SourceFile {
            name: name.to_string(),
            rows,
        });
    }
}

impl fmt::Display for ImportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "read:")?;
        for file in &self.files {
            writeln!(f, "  {:<48} {:>7} rows", file.name, file.rows)?;
        }
        if let Some(cb) = &self.crunchbase {
            write_crunchbase(f, cb)?;
        }
        if let Some(yc) = &self.yc {
            write_yc(f, yc)?;
        }
        let w = &self.written;
        writeln!(f, "wrote:")?;
        writeln!(
            f,
            "  locations {}, industries {}, companies {}",
            w.locations, w.industries, w.companies
        )?;
        write!(
            f,
            "  firms {}, people {}, deals {}",
            w.investors, w.people, w.deals
        )
    }
}

fn write_crunchbase(f: &mut fmt::Formatter<'_>, cb: &CrunchbaseStats) -> fmt::Result {
    writeln!(f, "crunchbase-2013:")?;
    writeln!(
        f,
        "  companies {} ({} marked acquired, {} acquisitions of unknown companies, {} unknown state codes)",
        cb.companies, cb.acquired_from_acquisitions, cb.acquisitions_unknown_company, cb.unknown_state_codes
    )?;
    writeln!(
        f,
        "  rounds {} ({} exact duplicates dropped, {} of unknown companies skipped)",
        cb.rounds, cb.duplicate_rounds, cb.rounds_unknown_company
    )?;
    writeln!(
        f,
        "  investor edges {}: {} matched a round; {} of {} rounds got an investor; {} with no investor name",
        cb.edges, cb.edges_matched, cb.rounds_with_investor, cb.rounds, cb.edges_empty_investor
    )?;
    writeln!(
        f,
        "  deals with investors {}; investor names read as {} firms and {} angels",
        cb.deals_with_investor, cb.investor_firms, cb.investor_angels
    )
}

fn write_yc(f: &mut fmt::Formatter<'_>, yc: &YcStats) -> fmt::Result {
    writeln!(f, "yc-2014:")?;
    writeln!(
        f,
        "  startups {}: {} merged by Crunchbase URL, {} by name slug, {} new ({} permalinks suffixed)",
        yc.startups, yc.merged_by_crunchbase_url, yc.merged_by_name_slug, yc.new_companies, yc.renamed_permalinks
    )?;
    writeln!(f, "  unknown US state names {}", yc.unknown_states)?;
    writeln!(
        f,
        "  batch deals {} ({} already in Crunchbase)",
        yc.batch_deals, yc.batch_deals_already_in_crunchbase
    )?;
    writeln!(
        f,
        "  founders {} rows, {} matched a startup, {} people",
        yc.founder_rows, yc.founders_matched, yc.founder_people
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lists_files_stats_and_counts() {
        let mut r = ImportReport::default();
        r.read("crunchbase-2013/rounds.csv.gz", 31_679);
        r.crunchbase = Some(CrunchbaseStats {
            edges_matched: 51_838,
            ..Default::default()
        });
        r.written.deals = 31_616;
        let text = r.to_string();
        assert!(text.contains("crunchbase-2013/rounds.csv.gz"), "{text}");
        assert!(text.contains("31679 rows"), "{text}");
        assert!(text.contains("51838 matched a round"), "{text}");
        assert!(text.contains("deals 31616"), "{text}");
        assert!(!text.contains("yc-2014:"), "{text}");
    }
}
