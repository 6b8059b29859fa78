//! The `sluice` command: inspect, check, format and convert JSON, NDJSON and MessagePack.
//!
//! Every command is a `pipe` from a format reader into a writer: `dump` into a `DumpWriter`,
//! `check` into a `NoopWriter`, `fmt` and `convert` into a format writer.

mod commands;
mod format;
mod input;
mod name;
mod output;
mod recent;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit code when every input was valid.
const EXIT_OK: u8 = 0;
/// Exit code when an input is invalid (a diagnostic is printed to stderr).
const EXIT_INVALID: u8 = 1;
/// Exit code for usage errors: bad arguments, unreadable files, unknown formats.
const EXIT_USAGE: u8 = 2;
/// Exit code after an interrupt (SIGINT, SIGTERM, SIGHUP, Ctrl-C) while an output file is
/// written (see `output`): 128 + SIGINT, as a shell reports a process that SIGINT ended.
const EXIT_INTERRUPTED: u8 = 130;

const AFTER_HELP: &str = "\
Exit codes:
    0  success: every input is valid
    1  invalid input: a diagnostic pointing at the offending value is printed to stderr
    2  usage error: bad arguments, a file that cannot be read or written, an unknown format
  130  interrupted (Ctrl-C, SIGTERM) while writing -o OUT, which is left as it was

The format of an input: --from (convert, dump) or --ndjson / --msgpack (check), else its
extension (.json .jsonc .json5 JSON, .ndjson .jsonl NDJSON, .msgpack .mpk .mp MessagePack),
else JSON (convert asks for --from instead). fmt always reads one JSON text, and ndjson stats
NDJSON records. The output format of convert: --to, else the extension of -o OUT.
The JSON dialect of an input: --strict, --relaxed or --json5, else its extension (.jsonc
relaxed, .json5 JSON5), else RFC 8259 (ndjson stats reads RFC 8259 only).
`-` reads standard input.";

/// Move structured data between JSON, NDJSON and MessagePack, with diagnostics that point at
/// the exact value.
#[derive(Debug, Parser)]
#[command(name = "sluice", version, about, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print one line per token of a file, indented by depth.
    Dump(commands::dump::Args),
    /// Check that files are valid; print a diagnostic for the first error of each.
    ///
    /// Every file is checked, even after one that cannot be read. With several files a last
    /// line counts the invalid ones and those that could not be read. Exit code 2 if any
    /// file could not be read, else 1 if any is invalid.
    Check(commands::check::Args),
    /// Reformat a JSON file, pretty or condensed.
    Fmt(commands::fmt::Args),
    /// Convert between JSON, NDJSON and MessagePack.
    Convert(commands::convert::Args),
    /// Tools for large NDJSON corpora, run on every core.
    Ndjson(commands::ndjson::Args),
}

/// What went wrong, and so which exit code to use.
#[derive(Debug)]
enum Failure {
    /// The input is invalid; the rendered diagnostic.
    Invalid(String),
    /// A usage or environment problem; the message.
    Usage(String),
    /// Stop without a message (the output pipe was closed).
    Quiet,
}

fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|err| parse_error(err).exit());
    let result = match cli.command {
        Command::Dump(args) => commands::dump::run(&args),
        Command::Check(args) => commands::check::run(&args),
        Command::Fmt(args) => commands::fmt::run(&args),
        Command::Convert(args) => commands::convert::run(&args),
        Command::Ndjson(args) => commands::ndjson::run(&args),
    };
    match result {
        // A closed output pipe ends the run quietly, like a successful one.
        Ok(()) | Err(Failure::Quiet) => ExitCode::from(EXIT_OK),
        Err(Failure::Invalid(diagnostic)) => {
            to_stderr(format_args!("{diagnostic}"));
            ExitCode::from(EXIT_INVALID)
        }
        Err(Failure::Usage(message)) => {
            to_stderr(format_args!("sluice: {message}\n"));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// The argument parser's error, with the arguments it quotes shown as file names are (see
/// `name`): clap writes a bad argument as it is (`unexpected argument 'b.json' found`), so a
/// file name given one time too many, holding a line feed, would forge a line. The arguments
/// are parsed again, each escaped, for the same error about the escaped arguments; if they
/// happen to parse, the first error stands.
fn parse_error(err: clap::Error) -> clap::Error {
    let mut escaped = false;
    let args: Vec<std::ffi::OsString> = std::env::args_os()
        .enumerate()
        .map(|(at, arg)| {
            let shown = name::shown(std::path::Path::new(&arg));
            if at == 0 || shown.as_str() == arg {
                arg
            } else {
                escaped = true;
                shown.into()
            }
        })
        .collect();
    if !escaped {
        return err;
    }
    Cli::try_parse_from(args).err().unwrap_or(err)
}

/// Writes a message to standard error. Unlike `eprint!`, which panics when standard error
/// cannot be written (`2>/dev/full`), a failure is ignored: there is nowhere left to report
/// it, and the exit code still tells what happened.
pub(crate) fn to_stderr(message: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(message);
}
