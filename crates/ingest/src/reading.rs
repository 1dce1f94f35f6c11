//! The words of reading the inputs: input errors and why lines were not read. A parser's own
//! words (the YAML library's, serde's) are passed through as they are, like Kubernetes' own text.

use faultline_report::Text;

faultline_report::messages! {
    /// Reading the inputs.
    pub enum Msg {
        NotAnObject {} = "reading.not-an-object" {
            en: "this document is not a Kubernetes object (expected a map with `kind`)",
            zh: "这个文档不是 Kubernetes 对象（应当是带有 `kind` 的映射）",
        },
        NoKind {} = "reading.no-kind" {
            en: "this object has no `kind`, so it cannot be interpreted",
            zh: "这个对象没有 `kind`，无法解读",
        },
        /// A field of an object that does not decode as its kind's schema says (serde's words).
        FieldProblem { kind: Text, name: Text, problem: String, kept_object: bool } = "reading.field-problem" {
            en: {
                let outcome = if *kept_object.0 {
                    "the object is kept for what can still be read from it"
                } else {
                    "this field was ignored, the rest of the object was read"
                };
                format!("{kind} \"{}\": {problem}; {outcome}", name.0.as_str())
            },
            zh: {
                let outcome = if *kept_object.0 {
                    "仍保留这个对象中还能读取的部分"
                } else {
                    "忽略了这个字段，对象的其余部分已读取"
                };
                format!("{kind} “{}”：{problem}；{outcome}", name.0.as_str())
            },
        },
        Binary { name: String } = "reading.binary" {
            en: "{name} looks like a binary file (it has NUL bytes or is not UTF-8 text), not kubectl output; it was not analysed",
            zh: "{name} 看起来是二进制文件（含有 NUL 字节，或不是 UTF-8 文本），不是 kubectl 的输出；没有分析它",
        },
        /// A JSON value cut off at the end of the input (the parser's error first).
        JsonCutOff { error: Box<faultline_report::message::Message> } = "reading.json-cut-off" {
            en: "{error}: the input ends here, inside a JSON value (cut off?); everything complete before this point was read, the rest is lost",
            zh: "{error}：输入在一个 JSON 值的中间结束了（被截断了？）；此处之前完整的内容都已读取，其余的丢失了",
        },
        DescribeKindUnknown {} = "reading.describe-kind-unknown" {
            en: "cannot tell which kind of object this describe output is about (paste the `kubectl describe` command line with it); its events are still read",
            zh: "看不出这段 describe 输出是关于哪一类对象的（请连同 `kubectl describe` 命令行一起粘贴）；其中的事件仍然读取了",
        },
        /// The YAML library's error, as it words it.
        YamlSyntax { detail: String } = "reading.yaml-syntax" {
            en: "YAML syntax error: {detail}",
            zh: "YAML 语法错误：{detail}",
        },
        /// A YAML error at the end of its document.
        YamlUnclosed { error: Box<faultline_report::message::Message> } = "reading.yaml-unclosed" {
            en: "{error} (at the end of the document: something opened earlier, a bracket or a quote, is never closed, or the paste was cut off)",
            zh: "{error}（在文档末尾：前面打开的括号或引号一直没有闭合，或者粘贴的内容被截断了）",
        },
        /// A YAML document read up to the line before a cut.
        YamlReadUpTo { error: Box<faultline_report::message::Message>, last: u32, from: u32, to: u32 } = "reading.yaml-read-up-to" {
            en: "{error}; the document was read up to line {last}, lines {from}-{to} were not",
            zh: "{error}；文档读取到第 {last} 行，第 {from}-{to} 行没有读取",
        },
        YamlUnbalanced {} = "reading.yaml-unbalanced" {
            en: "unbalanced YAML structure",
            zh: "YAML 结构不平衡",
        },
        YamlUnknownAnchor {} = "reading.yaml-unknown-anchor" {
            en: "alias to an unknown anchor",
            zh: "别名指向一个不存在的锚点",
        },
        TooDeep { max: usize } = "reading.too-deep" {
            en: "nesting deeper than {max} levels; kubectl never prints this",
            zh: "嵌套超过 {max} 层；kubectl 从不输出这样的内容",
        },
        AliasBomb {} = "reading.alias-bomb" {
            en: "aliases expand to far more data than the input holds (a YAML alias bomb?); this document was not read",
            zh: "别名展开后的数据远多于输入本身（YAML 别名炸弹？）；这个文档没有读取",
        },
        JsonCutHere {} = "reading.json-cut-here" {
            en: "unexpected end of input: the JSON value is cut off here",
            zh: "输入意外结束：JSON 值在这里被截断了",
        },
        /// A character where a JSON value should start (`found` is the character, quoted).
        JsonExpectedValue { found: String } = "reading.json-expected-value" {
            en: "expected a JSON value, found {found}",
            zh: "这里应当是一个 JSON 值，却是 {found}",
        },
        JsonExpectedWord { word: &'static str } = "reading.json-expected-word" {
            en: "expected `{word}`",
            zh: "这里应当是 `{word}`",
        },
        JsonExpectedKey {} = "reading.json-expected-key" {
            en: "expected a quoted key in this JSON object",
            zh: "这个 JSON 对象中这里应当是带引号的键",
        },
        /// `key` quoted.
        JsonExpectedColon { key: String } = "reading.json-expected-colon" {
            en: "expected `:` after the key {key}",
            zh: "键 {key} 之后应当是 `:`",
        },
        JsonObjectCut {} = "reading.json-object-cut" {
            en: "unexpected end of input inside a JSON object (cut off?)",
            zh: "输入在一个 JSON 对象中间意外结束（被截断了？）",
        },
        JsonObjectSeparator {} = "reading.json-object-separator" {
            en: "expected `,` or `}}` in this JSON object",
            zh: "这个 JSON 对象中这里应当是 `,` 或 `}}`",
        },
        JsonArrayCut {} = "reading.json-array-cut" {
            en: "unexpected end of input inside a JSON array (cut off?)",
            zh: "输入在一个 JSON 数组中间意外结束（被截断了？）",
        },
        JsonArraySeparator {} = "reading.json-array-separator" {
            en: "expected `,` or `]` in this JSON array",
            zh: "这个 JSON 数组中这里应当是 `,` 或 `]`",
        },
        JsonLineBreakInString {} = "reading.json-line-break-in-string" {
            en: "line break inside a JSON string (unclosed quote?)",
            zh: "JSON 字符串中出现了换行（引号没有闭合？）",
        },
        JsonControlCharacter {} = "reading.json-control-character" {
            en: "control character inside a JSON string",
            zh: "JSON 字符串中出现了控制字符",
        },
        JsonStringCut {} = "reading.json-string-cut" {
            en: "unexpected end of input inside a JSON string",
            zh: "输入在一个 JSON 字符串中间意外结束",
        },
        JsonEscapeCut {} = "reading.json-escape-cut" {
            en: "unexpected end of input after `\\`",
            zh: "输入在 `\\` 之后意外结束",
        },
        JsonInvalidEscape {} = "reading.json-invalid-escape" {
            en: "invalid escape in a JSON string",
            zh: "JSON 字符串中有无效的转义",
        },
        JsonInvalidUnicodeEscape {} = "reading.json-invalid-unicode-escape" {
            en: "invalid \\u escape in a JSON string",
            zh: "JSON 字符串中有无效的 \\u 转义",
        },
        /// `text` quoted.
        JsonMalformedNumber { text: String } = "reading.json-malformed-number" {
            en: "malformed number {text}",
            zh: "数字 {text} 格式不正确",
        },
        /// Why lines were not read: a layout no reader knows.
        UnknownLayout {} = "reading.unknown-layout" {
            en: "rows or columns in a layout Faultline does not read",
            zh: "Faultline 不认识其格式的行或列",
        },
        /// Why a line was not judged: it reads like a failure, and nothing knows it.
        FailureLooking {} = "reading.failure-looking" {
            en: "a line that reads like a failure, which no reader and no catalog entry knows: the report cannot say there is no fault",
            zh: "这一行看起来像是故障，但没有任何读取器或目录条目认识它：报告不能说没有故障",
        },
        /// Why a line was not read: the last row of a table, cut off by the excerpt.
        CutRow {} = "reading.cut-row" {
            en: "the last row of a table, cut off: what its missing cells said is unknown",
            zh: "表格的最后一行被截断了：缺失的单元格原本写了什么无从知道",
        },
        /// Why lines were not read: describe fields without their object.
        DescribeFragment {} = "reading.describe-fragment" {
            en: "describe fields without the object they belong to (no `Name:` line, and no `kubectl describe` command naming it)",
            zh: "没有所属对象的 describe 字段（没有 `Name:` 行，也没有指明对象的 `kubectl describe` 命令）",
        },
    }
}
