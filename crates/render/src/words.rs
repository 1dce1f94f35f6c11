//! The renderings' words in each language, and the sentence that states a verdict in them.

use super::Lang;
use faultline_report::Report;

/// The sentence that says what a report without an error or warning finding amounts to, or `None`
/// for the verdict `fault` (the findings say it). An inconclusive report says in plain words what
/// was read, what was not and where (unread lines, and what could not be read as it stands: the
/// input errors, never a bare "Input errors"), then the one paste most likely to decide
/// ([`Report::paste_next`]).
pub fn verdict_sentence(report: &Report, w: &Words) -> Option<String> {
    let zh = w.lang == "zh";
    let paste = |generic: &str| match &report.paste_next {
        Some(command) if zh => format!("{}`{command}`{}", w.paste_next_before, w.paste_next_after),
        Some(command) => format!("{} `{command}`{}", w.paste_next_before, w.paste_next_after),
        None => generic.to_string(),
    };
    match report.verdict {
        faultline_report::Verdict::Fault => None,
        faultline_report::Verdict::NoFault => Some(w.no_findings.to_string()),
        faultline_report::Verdict::Inconclusive if report.unread.is_empty() && report.errors.is_empty() => {
            Some(w.nothing_read.to_string())
        }
        faultline_report::Verdict::Inconclusive => {
            let mut places: Vec<String> = report.unread.iter().take(5).map(|u| unread_place(u, w)).collect();
            places.extend(
                report
                    .errors
                    .iter()
                    .take(5 - places.len().min(5))
                    .map(|e| error_place(e, w)),
            );
            if report.unread.len() + report.errors.len() > 5 {
                places.push("…".to_string());
            }
            let read = if report.counts.is_empty() {
                w.read_nothing.to_string()
            } else {
                w.read_some.replace("{read}", &read_list(report, w))
            };
            Some(if zh {
                format!(
                    "{}{read}{}{}。{}",
                    w.not_read_before,
                    w.not_read_middle,
                    places.join("；"),
                    paste(w.not_read_after)
                )
            } else {
                format!(
                    "{} {read}{} {}. {}",
                    w.not_read_before,
                    w.not_read_middle,
                    places.join("; "),
                    paste(w.not_read_after)
                )
            })
        }
    }
}

/// What was read, in words: `1 Pod and 3 events` (`1 个 Pod、3 个事件`).
fn read_list(report: &Report, w: &Words) -> String {
    let zh = w.lang == "zh";
    let items: Vec<String> = report
        .counts
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(kind, n)| match (zh, kind.as_str(), *n) {
            (true, "Event", n) => format!("{n} 个事件"),
            (true, kind, n) => format!("{n} 个 {kind}"),
            (false, "Event", 1) => "1 event".to_string(),
            (false, "Event", n) => format!("{n} events"),
            (false, kind, 1) => format!("1 {kind}"),
            (false, kind, n) => format!("{n} {}", plural(kind)),
        })
        .collect();
    match items.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        _ if zh => items.join("、"),
        [head @ .., last] => format!("{} and {last}", head.join(", ")),
    }
}

/// A kind's plural as kubectl's resource names have it (`Pods`, `Ingresses`, `Endpoints`).
fn plural(kind: &str) -> String {
    if kind.ends_with('s') && !kind.ends_with("ss") {
        kind.to_string()
    } else if kind.ends_with("ss") || kind.ends_with('x') {
        format!("{kind}es")
    } else if let Some(stem) = kind.strip_suffix('y').filter(|s| !s.ends_with(['a', 'e', 'o'])) {
        format!("{stem}ies")
    } else {
        format!("{kind}s")
    }
}

/// `paste, line 1: cannot tell which kind of object …` (`paste 第 1 行：…`).
fn error_place(e: &faultline_report::InputError, w: &Words) -> String {
    let message = e.message.as_str().trim_end_matches(['.', '。']);
    if w.lang == "zh" {
        format!("{} 第 {} 行：{message}", e.source, e.line)
    } else {
        format!("{}, line {}: {message}", e.source, e.line)
    }
}

/// `paste, lines 3–41: rows or columns in a layout Faultline does not read` (`paste 第 3–41 行：…`).
pub(super) fn unread_place(u: &faultline_report::Unread, w: &Words) -> String {
    let zh = w.lang == "zh";
    let lines = match (zh, u.line == u.end_line) {
        (false, true) => format!("line {}", u.line),
        (false, false) => format!("lines {}–{}", u.line, u.end_line),
        (true, true) => format!("第 {} 行", u.line),
        (true, false) => format!("第 {}–{} 行", u.line, u.end_line),
    };
    // In the report's language already ([`faultline_report::Report::localize`]).
    let reason = u.reason.as_str();
    if zh {
        format!("{} {lines}：{reason}", u.source)
    } else {
        format!("{}, {lines}: {reason}", u.source)
    }
}

/// One language's words for the renderings.
pub struct Words {
    pub lang: &'static str,
    pub note: Option<&'static str>,
    pub title: &'static str,
    pub boundary: &'static str,
    /// The headline's label when the independent faults are at several boundaries, and its words
    /// (`{n}` faults, `{list}` of boundaries).
    pub boundaries_label: &'static str,
    pub faults_across: &'static str,
    pub no_findings: &'static str,
    /// The verdict `inconclusive` when nothing judgeable was read.
    pub nothing_read: &'static str,
    /// The verdict `inconclusive` with unread lines: before the list of where they are.
    pub not_read_before: &'static str,
    /// … and after it, where no command is known.
    pub not_read_after: &'static str,
    /// Between what was read and where the rest is: `, but could not read all of it:`.
    pub not_read_middle: &'static str,
    /// What was read: `Faultline read {read} and found no fault in it`; nothing.
    pub read_some: &'static str,
    pub read_nothing: &'static str,
    /// Around the one command most likely to decide ([`Report::paste_next`]).
    pub paste_next_before: &'static str,
    pub paste_next_after: &'static str,
    /// The heading of the input errors when the verdict is inconclusive: what could not be read.
    pub not_read_title: &'static str,
    pub unread: &'static str,
    pub evidence: &'static str,
    pub cannot: &'static str,
    pub next: &'static str,
    pub evidence_title: &'static str,
    pub cannot_title: &'static str,
    pub next_title: &'static str,
    pub inputs: &'static str,
    pub input_errors: &'static str,
    pub columns: [&'static str; 3],
    pub footer: &'static str,
    pub redacted_note: &'static str,
    pub input: &'static str,
    pub documents: &'static str,
    pub objects: &'static str,
    pub counts: &'static str,
    pub error: &'static str,
    /// Notes on inputs that are not objects: container log, command output, kubectl's messages, empty.
    format_notes: [&'static str; 4],
    severities: [&'static str; 3],
    /// How the capture moment is known: set, newest timestamp, age anchor (before its explanation),
    /// unknown.
    pub captured: [&'static str; 4],
    /// `Captured` and `Exported … by`.
    pub captured_label: &'static str,
    pub exported_label: &'static str,
    /// Before each input's name and SHA-256 in an export's stamp.
    pub inputs_label: &'static str,
    /// The boundaries' titles in `Boundary::ALL` order; `None`: the article's English titles.
    boundaries: Option<[&'static str; 8]>,
    /// `Confidence` and the levels: established, likely, possible.
    pub confidence: &'static str,
    confidences: [&'static str; 3],
    /// The section of the command that decides, what it would mean if its output shows the tested
    /// hypothesis, and if it does not.
    pub decide_title: &'static str,
    pub decide_between: &'static str,
    /// `{label}`: the tested finding's number.
    pub if_shown: &'static str,
    pub if_not: &'static str,
    /// The section of what was considered and ruled out.
    pub ruled_out_title: &'static str,
}

impl Words {
    pub fn severity(&self, severity: faultline_report::Severity) -> &'static str {
        match severity {
            faultline_report::Severity::Error => self.severities[0],
            faultline_report::Severity::Warning => self.severities[1],
            faultline_report::Severity::Info => self.severities[2],
        }
    }

    /// What an input of this format is, when it is not objects; empty otherwise.
    pub fn format_note(&self, format: &str) -> &'static str {
        match format {
            "container-log" => self.format_notes[0],
            "command-output" => self.format_notes[1],
            "kubectl-messages" => self.format_notes[2],
            "empty" => self.format_notes[3],
            _ => "",
        }
    }

    pub fn confidence(&self, confidence: faultline_report::Confidence) -> &'static str {
        match confidence {
            faultline_report::Confidence::Established => self.confidences[0],
            faultline_report::Confidence::Likely => self.confidences[1],
            faultline_report::Confidence::Possible => self.confidences[2],
        }
    }

    pub fn boundary_title(&self, boundary: faultline_report::Boundary) -> &'static str {
        let at = faultline_report::Boundary::ALL
            .iter()
            .position(|b| *b == boundary)
            .unwrap_or_default();
        self.boundaries.map_or(boundary.title(), |titles| titles[at])
    }
}

const EN: Words = Words {
    lang: "en",
    note: None,
    title: "Faultline diagnosis",
    boundary: "Fault boundary",
    boundaries_label: "Fault boundaries",
    faults_across: "{n} independent faults across {list}",
    no_findings: "No findings: the input was read, and nothing in it points to a fault.",
    nothing_read: "Inconclusive: Faultline found nothing in this input it could judge (no Kubernetes object, event or kubectl message). Paste the output of `kubectl describe` or `kubectl get -o yaml` for the object in trouble, with its events.",
    not_read_before: "Inconclusive:",
    not_read_after: "Paste the whole `kubectl describe` (or `kubectl get -o yaml`) output of the object in trouble.",
    not_read_middle: ", but could not read all of it:",
    read_some: "Faultline read {read} and found no fault in it",
    read_nothing: "Faultline found nothing it could judge",
    paste_next_before: "The paste most likely to decide: the output of",
    paste_next_after: ".",
    not_read_title: "What could not be read",
    unread: "not read",
    evidence: "evidence",
    cannot: "cannot establish",
    next: "next steps",
    evidence_title: "Evidence",
    cannot_title: "What this evidence cannot establish",
    next_title: "Next steps",
    inputs: "Inputs",
    input_errors: "Input errors",
    columns: ["where", "field", "value"],
    footer: "Made by Faultline from the pasted input alone; nothing was sent anywhere.",
    redacted_note: "Made from the redacted copy of the input: secrets were replaced by tokens such as <redacted:token:1> before this analysis.",
    input: "input",
    documents: "documents",
    objects: "objects",
    counts: "objects",
    error: "error",
    format_notes: [
        "a container log: listed, not analysed",
        "output of another command: kept as text for the rules",
        "kubectl's own messages (API errors, connection failures)",
        "empty",
    ],
    severities: ["error", "warning", "info"],
    captured: [
        "set by you",
        "or later: the newest timestamp in the input",
        "or later: {subject} was created at {created} and its {reason} event is {age} old",
        "unknown: the input has no absolute time; entries are shown by age",
    ],
    captured_label: "Captured",
    exported_label: "Exported",
    inputs_label: "Inputs (SHA-256)",
    boundaries: None,
    confidence: "Confidence",
    confidences: ["established", "likely", "possible"],
    decide_title: "The command that decides",
    decide_between: "between",
    if_shown: "If it confirms {label}",
    if_not: "If it does not",
    ruled_out_title: "Considered and ruled out",
};

const ZH: Words = Words {
    lang: "zh",
    note: Some("说明：Kubernetes 自己写出的内容（事件消息、原因、字段、名称）保留原文；命令可直接运行。"),
    title: "Faultline 诊断",
    boundary: "故障边界",
    boundaries_label: "故障边界",
    faults_across: "{n} 个相互独立的故障，分布在 {list}",
    no_findings: "没有发现：输入已读取，其中没有证据指向故障。",
    nothing_read: "无法判断：输入中没有 Faultline 能判断的内容（没有 Kubernetes 对象、事件或 kubectl 消息）。请粘贴出问题对象的 `kubectl describe` 或 `kubectl get -o yaml` 输出及其事件。",
    not_read_before: "无法判断：",
    not_read_after: "请粘贴出问题对象完整的 `kubectl describe`（或 `kubectl get -o yaml`）输出。",
    not_read_middle: "，但有部分内容未能读取：",
    read_some: "Faultline 读取了 {read}，其中没有发现故障",
    read_nothing: "Faultline 没有找到能判断的内容",
    paste_next_before: "最有可能得出结论的下一步：粘贴 ",
    paste_next_after: " 的输出。",
    not_read_title: "未能读取的内容",
    unread: "未读取",
    evidence: "证据",
    cannot: "无法确定",
    next: "下一步",
    evidence_title: "证据",
    cannot_title: "这些证据无法确定的内容",
    next_title: "下一步",
    inputs: "输入",
    input_errors: "输入错误",
    columns: ["位置", "字段", "值"],
    footer: "由 Faultline 仅根据粘贴的输入生成；没有向任何地方发送数据。",
    redacted_note: "基于输入的脱敏副本生成：分析前，机密值已替换为 <redacted:token:1> 这样的标记。",
    input: "输入",
    documents: "个文档",
    objects: "个对象",
    counts: "对象",
    error: "错误",
    format_notes: [
        "容器日志：只列出，不分析",
        "其他命令的输出：作为文本供规则读取",
        "kubectl 自身的消息（API 错误、连接失败）",
        "空",
    ],
    severities: ["错误", "警告", "信息"],
    captured: [
        "由你设置",
        "或更晚：输入中最新的时间戳",
        "或更晚：{subject} 创建于 {created}，其 {reason} 事件已存在 {age}",
        "未知：输入中没有绝对时间；条目按存在时长显示",
    ],
    captured_label: "采集时间",
    exported_label: "导出时间",
    inputs_label: "输入（SHA-256）",
    boundaries: Some([
        "API 服务器 / 控制平面",
        "etcd",
        "调度约束",
        "节点 / 容器运行时",
        "资源配额 / 准入",
        "可用区 / 网络 / 存储",
        "就绪 / Service 端点",
        "应用",
    ]),
    confidence: "置信度",
    confidences: ["已确认", "很可能", "可能"],
    decide_title: "起决定作用的命令",
    decide_between: "区分",
    if_shown: "如果输出证实了 {label}",
    if_not: "如果没有证实",
    ruled_out_title: "已考虑并排除",
};

/// The words of a language.
pub fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}
