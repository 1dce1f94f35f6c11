//! `faultline mcp`: Faultline as a Model Context Protocol server over stdio, for AI agents.
//!
//! The agent brings kubectl output; the server returns the engine's judgement with its evidence
//! (`analyze`), a redacted copy of a text (`redact`), the rules (`rules`, `rule`) and the commands
//! whose output decides a symptom (`what_to_paste`). Every text it returns is made from the
//! redacted input (values replaced by their tokens, as the app's exports are), each result says how
//! many values were withheld, and no parameter turns that off.
//!
//! The protocol is the official Rust SDK's (`rmcp`); the work is in [`tools`] and [`catalogue`],
//! plain functions that the tests call without a client. A tool that cannot answer returns a tool
//! error (`isError: true`) saying why and where; the server keeps serving after it.

pub mod catalogue;
pub mod tools;

use rmcp::handler::server::common::schema_for_output;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use serde::Serialize;

use catalogue::{Catalogue, PasteGuide, PasteParams, RuleDocOut, RuleParams, RulesParams};
use tools::{Analysis, AnalyzeParams, RedactParams, Redaction, ToolError};

pub use tools::DEFAULT_MAX_BYTES;

/// What the server tells an agent when it connects.
const INSTRUCTIONS: &str = "Faultline diagnoses Kubernetes incidents from kubectl output, offline and \
deterministically. Call `analyze` with what kubectl printed (get -o yaml/json, describe, get tables, \
events, logs): it returns the fault boundary, each finding with the input lines it rests on, what that \
evidence cannot establish, and the next kubectl commands to run. Secrets in the input are replaced by \
tokens such as <redacted:secret-data:1> before anything is analysed, so no secret value is ever in a \
result. `what_to_paste` says which commands to run for a symptom; `rules` and `rule` document the checks.";

/// The server: the tools, and the largest input it accepts.
#[derive(Debug, Clone)]
pub struct Faultline {
    max_bytes: u64,
    tool_router: ToolRouter<Self>,
}

/// A structured result with a short text beside it (the text first, for clients that show only
/// text).
fn structured(value: &impl Serialize, text: String) -> Result<CallToolResult, ToolError> {
    let value =
        serde_json::to_value(value).map_err(|e| ToolError(format!("cannot serialise the result: {e}")))?;
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(value);
    Ok(result)
}

/// A tool's outcome as the protocol carries it: an error is a tool error (`isError: true`) with its
/// message as text, never a failed request, so the agent reads why. The work runs here, guarded: the
/// engine is fuzzed and should never panic, but if it did on some input, that call is a tool error
/// and the server goes on serving.
fn outcome(work: impl FnOnce() -> Result<CallToolResult, ToolError>) -> CallToolResult {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|_| {
        Err(ToolError(
            "Faultline failed on this input (a bug: please report it with the input, redacted)".into(),
        ))
    });
    result.unwrap_or_else(|e| CallToolResult::error(vec![ContentBlock::text(e.0)]))
}

/// Pretty JSON as a tool's text, for the tools whose structured result is short.
fn json_text(value: &impl Serialize) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

#[tool_router]
impl Faultline {
    /// A server that refuses inputs over `max_bytes` in all.
    pub fn new(max_bytes: u64) -> Self {
        Self {
            max_bytes,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "Diagnose a Kubernetes incident from kubectl output (get -o yaml|json, describe, get tables, events, logs; several at once). Returns the verdict, each finding with its fault boundary, the input lines it rests on, what that evidence cannot establish and the next kubectl commands, what was ruled out, and how many secret values were withheld (the input is redacted before it is analysed). Give `since` (an earlier result) to learn what the new output changed.",
        output_schema = schema_for_output::<Analysis>()
    )]
    pub fn analyze(&self, Parameters(params): Parameters<AnalyzeParams>) -> CallToolResult {
        outcome(|| {
            tools::analyze(&params, self.max_bytes).and_then(|(analysis, text)| structured(&analysis, text))
        })
    }

    #[tool(
        description = "Replace every secret value in a text (Secret data, tokens, passwords, keys, credentials in URLs and flags) by a token such as <redacted:secret-data:1>, keeping names, line numbers and valid YAML/JSON. Returns the redacted text and where each value was (kind, line, column), never the value.",
        output_schema = schema_for_output::<Redaction>()
    )]
    pub fn redact(&self, Parameters(params): Parameters<RedactParams>) -> CallToolResult {
        outcome(|| {
            tools::redact_text(&params, self.max_bytes).and_then(|r| {
                let text = format!(
                    "{}\n\n{} value(s) withheld ({} distinct).",
                    r.text, r.withheld.values, r.withheld.tokens
                );
                structured(&r, text)
            })
        })
    }

    #[tool(
        description = "List Faultline's rules: each rule's id, the fault boundary it points to, and what it finds.",
        output_schema = schema_for_output::<Catalogue>()
    )]
    pub fn rules(&self, Parameters(params): Parameters<RulesParams>) -> CallToolResult {
        outcome(|| {
            catalogue::catalogue(&params).and_then(|c| {
                let text: String = c
                    .rules
                    .iter()
                    .map(|r| format!("{} ({}): {}\n", r.id, r.boundary, r.finds))
                    .collect();
                structured(&c, text)
            })
        })
    }

    #[tool(
        description = "One rule's documentation (Markdown): what it finds, why it matters, its evidence, fault boundary, what its evidence cannot establish, the next evidence to collect, an example.",
        output_schema = schema_for_output::<RuleDocOut>()
    )]
    pub fn rule(&self, Parameters(params): Parameters<RuleParams>) -> CallToolResult {
        outcome(|| {
            catalogue::rule(&params).and_then(|r| {
                let text = r.docs.clone();
                structured(&r, text)
            })
        })
    }

    #[tool(
        description = "Which kubectl commands to run for a symptom (a Pod Pending or crash-looping, a Service not answering, a rollout stuck, node, API or storage problems), so that `analyze` can decide it.",
        output_schema = schema_for_output::<PasteGuide>()
    )]
    pub fn what_to_paste(&self, Parameters(params): Parameters<PasteParams>) -> CallToolResult {
        outcome(|| {
            catalogue::what_to_paste(&params).and_then(|g| {
                let text = json_text(&g);
                structured(&g, text)
            })
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Faultline {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "faultline",
                faultline_engine::render::VERSION,
            ))
            .with_instructions(INSTRUCTIONS)
    }
}

/// Serves the tools on standard input and output until the client closes them.
pub fn serve(max_bytes: u64) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))?;
    runtime.block_on(async move {
        let service = Faultline::new(max_bytes)
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("cannot start the MCP session: {e}"))?;
        service
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| format!("the MCP session ended with an error: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_is_listed_with_an_object_output_schema() {
        let tools = Faultline::new(DEFAULT_MAX_BYTES).tool_router.list_all();
        let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        names.sort_unstable();
        assert_eq!(names, ["analyze", "redact", "rule", "rules", "what_to_paste"]);
        for tool in &tools {
            let schema = tool.output_schema.as_ref().unwrap();
            assert_eq!(
                schema.get("type").and_then(|t| t.as_str()),
                Some("object"),
                "{}",
                tool.name
            );
        }
    }

    #[test]
    fn a_panic_in_a_tool_is_a_tool_error_and_an_error_is_one_too() {
        let result = outcome(|| panic!("a bug"));
        assert_eq!(result.is_error, Some(true));
        let result = outcome(|| Err(ToolError("lang: takes en or zh, not `fr`".into())));
        assert_eq!(result.is_error, Some(true));
        assert!(format!("{:?}", result.content).contains("not `fr`"));
        let result = outcome(|| structured(&serde_json::json!({"a": 1}), "a".into()));
        assert_eq!(result.is_error, Some(false));
        assert_eq!(result.structured_content, Some(serde_json::json!({"a": 1})));
    }
}
