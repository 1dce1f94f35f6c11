//! `faultline mcp`: the command line of the MCP server (`faultline_mcp`).

use std::io::Write;
use std::process::ExitCode;

use crate::{write_stdout, USAGE};

/// `faultline mcp [--max-bytes N]`: the MCP server on standard input and output, until the client
/// closes them.
pub(crate) fn run(args: &[String], stderr: &mut impl Write) -> ExitCode {
    let mut max_bytes = faultline_mcp::DEFAULT_MAX_BYTES;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let value = match arg.as_str() {
            "-h" | "--help" => return write_stdout(USAGE, stderr),
            "--max-bytes" => iter.next().cloned(),
            other => match other.strip_prefix("--max-bytes=") {
                Some(v) => Some(v.to_string()),
                None => {
                    let _ = writeln!(
                        stderr,
                        "faultline: `faultline mcp` takes only --max-bytes, not `{other}`"
                    );
                    return ExitCode::from(2);
                }
            },
        };
        match value.as_deref().map(str::parse::<u64>) {
            Some(Ok(n)) if n > 0 => max_bytes = n,
            _ => {
                let _ = writeln!(stderr, "faultline: --max-bytes takes a number of bytes over 0");
                return ExitCode::from(2);
            }
        }
    }
    match faultline_mcp::serve(max_bytes) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            let _ = writeln!(stderr, "faultline mcp: {message}");
            ExitCode::from(2)
        }
    }
}
