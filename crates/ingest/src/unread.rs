//! Lines not read, and why: what the report's `unread` lists.

/// Lines not read, with why (a range of the input's lines, 1-based and inclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreadLines {
    pub line: u32,
    pub end_line: u32,
    pub reason: UnreadReason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnreadReason {
    /// Rows, fields or columns that look like kubectl output in a layout no reader knows.
    UnknownLayout,
    /// Describe fields without the object they belong to (no `Name:` line, no command naming it).
    DescribeFragment,
    /// The last row of a table, cut off by the excerpt: its object is kept with its name only.
    CutRow,
    /// A line that reads like a failure (`error`, `refused`, `timed out`, …) that no reader read and
    /// the catalog does not know.
    FailureLooking,
}

impl UnreadReason {
    /// Why, in plain English (the report's `unread[].reason`).
    pub fn sentence(self) -> &'static str {
        match self {
            UnreadReason::UnknownLayout => "rows or columns in a layout Faultline does not read",
            UnreadReason::DescribeFragment => {
                "describe fields without the object they belong to (no `Name:` line, and no `kubectl describe` command naming it)"
            }
            UnreadReason::CutRow => "the last row of a table, cut off: what its missing cells said is unknown",
            UnreadReason::FailureLooking => {
                "a line that reads like a failure, which no reader and no catalog entry knows: the report cannot say there is no fault"
            }
        }
    }

    /// Why, as a message (the report's `unread[].reason_message`).
    pub fn message(self) -> faultline_report::message::Message {
        match self {
            UnreadReason::UnknownLayout => crate::reading::Msg::UnknownLayout {},
            UnreadReason::DescribeFragment => crate::reading::Msg::DescribeFragment {},
            UnreadReason::CutRow => crate::reading::Msg::CutRow {},
            UnreadReason::FailureLooking => crate::reading::Msg::FailureLooking {},
        }
        .into()
    }

    pub fn id(self) -> &'static str {
        match self {
            UnreadReason::UnknownLayout => "unknown-layout",
            UnreadReason::DescribeFragment => "describe-fragment",
            UnreadReason::CutRow => "cut-row",
            UnreadReason::FailureLooking => "failure-looking",
        }
    }
}
