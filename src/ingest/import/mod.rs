//! Importers from the real public data sets (`/work/shared/data`, see its
//! README) into a canonical dump: `indexer import --crunchbase-2013 DIR
//! --yc-2014 DIR --out DUMP_DIR`, either source alone or both.
//!
//! ```text
//! crunchbase-2013/companies ─┐                     ┌─ locations, industries
//!                acquisitions ┼─▶ Catalog ◀─ yc-2014 ┤  companies, firms
//!   rounds ◀─join─ edges ─────┘   (merged by slug)   └─ people, deals ─▶ DumpWriter
//! ```
//!
//! # Mapping choices
//!
//! **Ids and permalinks.** Every id is `uuid5(kind, key)`: companies
//! `("company", slug)`, firms `("firm", slugify(name))`, people
//! `("person", slugify(name))`, deals `("deal", key)`, financings
//! `("financing", key)`. A name that reaches the same key from two sources is
//! one row (a YC founder who is also an angel in the edge list is one
//! person). A Crunchbase company's slug is its permalink minus `/company/`.
//!
//! **Companies** (Crunchbase): name as exported (broken encodings such as
//! `BerkÃ_na Wireless` and the Excel error `#NAME?` are kept as they are);
//! `crunchbase` = `https://www.crunchbase.com/organization/<slug>`;
//! `founded_on` = `founded_at` (often month or year precision stored as the
//! 1st); `status` operating → private, acquired → acquired, ipo → public,
//! closed → no status (the enum has no "closed"); a company listed in
//! `acquisitions` becomes acquired unless public. Totals and round counts
//! are derived by the indexer, so `funding_total_usd` is not copied.
//!
//! **Industries**: see [`industries`] — 42 Crunchbase codes with readable
//! names, YC categories reusing them by slug, 13 super categories of ours.
//!
//! **Locations**: see [`locations`] — country `united-states`, state
//! `california`, region `sf-bay-area`, city `san-francisco-california`.
//!
//! **Deals** (`rounds`): one per row minus exact duplicates on (permalink,
//! funded_at, type, amount), the first kept. Key
//! `<slug>|<funded_at>|<type>|<amount>`; round types as in [`rounds`];
//! `date` = `funded_at`; `total_round_raised` = `raised_amount_usd` (none
//! when blank) with one USD financing of that size; `created_at` is left
//! out (the export records no ingestion time); `short_description` restates
//! the row (`Facebook raised $500K in an angel round.`).
//!
//! **Investors** (edge list): joined to raw rounds on (`company_name`,
//! `funded_when` = `funded_at`); a pair naming several rounds gives the
//! investor to each; edges without an investor name are skipped. Names are
//! split into firms and angels by the heuristic of [`investors`]; a firm or
//! angel appears once per deal. The data has no lead flags: every
//! participation has `lead: false`.
//!
//! **YC 2014**: see [`yc`] — merged into Crunchbase companies by slug,
//! a Y Combinator SEED deal at each batch start, founders as people.
//!
//! **Dump meta**: source `import crunchbase-2013 + yc-2014` (or the one
//! given); `as_of` 2013-12-31 (end of the Crunchbase snapshot year), or
//! 2014-09-05 (the YC snapshot's date) when YC is imported.
//!
//! Output is deterministic: rows are sorted by stable keys before writing
//! (see [`catalog`]), so the same inputs give the same bytes.
//!
//! Progress: each source file read is a stage (`read <file>`, compressed
//! bytes against the file's size), and so is writing the dump.

mod catalog;
mod crunchbase;
mod error;
mod geo;
mod industries;
mod investors;
mod locations;
mod permalink;
mod report;
mod rounds;
mod table;
mod yc;

#[cfg(test)]
mod real_data_tests;

use std::path::PathBuf;

use crate::progress::Progress;
use crate::schema::{Date, DumpMeta};

use catalog::Catalog;
pub use error::ImportError;
pub use report::{CrunchbaseStats, ImportReport, SourceFile, YcStats};

/// What to import and where to write the dump.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportOptions {
    /// The `crunchbase-2013/` folder (companies, acquisitions, rounds, edges).
    pub crunchbase_2013: Option<PathBuf>,
    /// The `yc-2014/` folder (startups, founders).
    pub yc_2014: Option<PathBuf>,
    /// The dump directory to (re)write.
    pub out: PathBuf,
}

/// Imports the given sources and writes one dump to `opts.out`.
pub fn import(opts: &ImportOptions) -> Result<ImportReport, ImportError> {
    import_with_progress(opts, &Progress::silent())
}

/// [`import`], reporting each source file read and the dump written on
/// `progress`.
pub fn import_with_progress(
    opts: &ImportOptions,
    progress: &Progress,
) -> Result<ImportReport, ImportError> {
    if opts.crunchbase_2013.is_none() && opts.yc_2014.is_none() {
        return Err(ImportError::NoSource);
    }
    let mut catalog = Catalog::default();
    let mut report = ImportReport::default();
    if let Some(dir) = &opts.crunchbase_2013 {
        crunchbase::import(dir, &mut catalog, &mut report, progress)?;
    }
    if let Some(dir) = &opts.yc_2014 {
        yc::import(dir, &mut catalog, &mut report, progress)?;
    }
    report.written = catalog.write(&opts.out, &dump_meta(opts), progress)?;
    Ok(report)
}

fn dump_meta(opts: &ImportOptions) -> DumpMeta {
    let mut sources = Vec::new();
    if opts.crunchbase_2013.is_some() {
        sources.push("crunchbase-2013");
    }
    if opts.yc_2014.is_some() {
        sources.push("yc-2014");
    }
    let as_of = if opts.yc_2014.is_some() {
        Date::from_ymd(2014, 9, 5)
    } else {
        Date::from_ymd(2013, 12, 31)
    };
    DumpMeta::new(format!("import {}", sources.join(" + ")), as_of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::io::Write;
    use std::path::Path;

    fn scratch(label: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "fundsearch-import-errors-{}-{label}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write_gz(path: &Path, text: &str) {
        let mut gz = flate2::write::GzEncoder::new(
            fs::File::create(path).unwrap(),
            flate2::Compression::fast(),
        );
        gz.write_all(text.as_bytes()).unwrap();
        gz.finish().unwrap();
    }

    fn options(crunchbase: Option<&Path>, yc: Option<&Path>, out: &Path) -> ImportOptions {
        ImportOptions {
            crunchbase_2013: crunchbase.map(Path::to_path_buf),
            yc_2014: yc.map(Path::to_path_buf),
            out: out.to_path_buf(),
        }
    }

    #[test]
    fn no_source_is_an_error() {
        let err = import(&options(None, None, Path::new("unused"))).unwrap_err();
        assert!(matches!(err, ImportError::NoSource));
    }

    #[test]
    fn a_missing_folder_names_the_file() {
        let dir = scratch("missing");
        let err = import(&options(Some(&dir.join("nope")), None, &dir.join("out"))).unwrap_err();
        assert!(matches!(err, ImportError::Io { .. }), "{err}");
        assert!(err.to_string().contains("companies.csv.gz"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bad_crunchbase_value_names_file_and_line() {
        let dir = scratch("crunchbase");
        let header =
            "permalink,name,category_code,status,country_code,state_code,region,city,founded_at\n";
        let good = "/company/a,A,web,operating,USA,CA,SF Bay,San Francisco,2012-01-01\n";
        write_gz(
            &dir.join("companies.csv.gz"),
            &format!("{header}{good}/company/b,B,web,operating,USA,CA,,,2013-13-01\n"),
        );
        let err = import(&options(Some(&dir), None, &dir.join("out"))).unwrap_err();
        assert!(
            matches!(err, ImportError::BadInput { line: 3, .. }),
            "{err}"
        );
        assert!(
            err.to_string()
                .ends_with("companies.csv.gz:3: bad founded_at '2013-13-01'"),
            "{err}"
        );
        write_gz(
            &dir.join("companies.csv.gz"),
            &format!("{header}{good}{good}"),
        );
        let err = import(&options(Some(&dir), None, &dir.join("out"))).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("companies.csv.gz:3: duplicate permalink 'a'"),
            "{err}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bad_yc_value_names_file_and_line() {
        let dir = scratch("yc");
        let header = "Company,Satus,Year Founded,Description,Categories,Y Combinator Year,Y Combinator Session,\
                      Headquarters (City),Headquarters (US State),Headquarters (Country),\
                      Crunchbase / Angel List Profile,Website\n";
        fs::write(
            dir.join("startups.csv"),
            format!("{header}X,Operating,,,,2012,Spring,,,,,\n"),
        )
        .unwrap();
        let err = import(&options(None, Some(&dir), &dir.join("out"))).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("startups.csv:2: unknown Y Combinator Session 'Spring'"),
            "{err}"
        );
        fs::write(dir.join("startups.csv"), "Company\nX\n").unwrap();
        let err = import(&options(None, Some(&dir), &dir.join("out"))).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("startups.csv:1: missing column 'Satus'"),
            "{err}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dump_meta_names_the_sources() {
        let both = options(Some(Path::new("a")), Some(Path::new("b")), Path::new("o"));
        assert_eq!(dump_meta(&both).source, "import crunchbase-2013 + yc-2014");
        assert_eq!(
            dump_meta(&both).as_of.map(|d| d.iso()).as_deref(),
            Some("2014-09-05")
        );
        let cb = options(Some(Path::new("a")), None, Path::new("o"));
        assert_eq!(dump_meta(&cb).source, "import crunchbase-2013");
        assert_eq!(
            dump_meta(&cb).as_of.map(|d| d.iso()).as_deref(),
            Some("2013-12-31")
        );
    }
}
