//! Shared by the two binaries: command-line parsing whose usage errors are
//! one line on stderr (scripts read the first line as the reason).

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;

/// Parses the command line of binary `name`; `--help` and `--version`
/// print and exit as usual, usage errors print one line and give exit code 2.
pub fn parse_or_usage_error<C: Parser>(name: &str) -> Result<C, ExitCode> {
    C::try_parse().map_err(|e| match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => {
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("invalid arguments")
                .trim_start_matches("error: ");
            eprintln!("{name}: {first} (see --help)");
            ExitCode::from(2)
        }
    })
}
