//! 简体中文。

use faultline_report::{Boundary, FactKind, FactState, Severity};

use super::Texts;
use crate::view_model::diagram::{Flow, Part};

fn sample_title(id: &str) -> &'static str {
    match id {
        "node-label" => "实验一：没有节点带有所需的标签",
        "image-pull" => "实验二：不存在的镜像标签",
        "readiness" => "实验三：始终失败的就绪探针",
        "publish-not-ready" => "实验三变体：发布未就绪地址",
        "quota-403" => "资源配额 403：Pod 从未被创建",
        "dependency" => "Pod 已就绪，但日志显示数据库拒绝连接",
        "healthy" => "一个健康的集群",
        _ => "示例",
    }
}

fn guide_symptom(id: &str) -> &'static str {
    faultline_render::guide::symptom(id, faultline_report::Lang::Zh)
}

fn guide_collects(id: &str) -> &'static str {
    faultline_render::guide::collects(id, faultline_report::Lang::Zh)
}

fn doc_section(title: &str) -> Option<&'static str> {
    match title {
        "What it finds" => Some("发现什么"),
        "Why it matters" => Some("为什么重要"),
        "Evidence" => Some("证据"),
        "Fault boundary" => Some("故障边界"),
        "What this evidence cannot establish" => Some("这些证据不能确定什么"),
        "Next evidence to collect" => Some("下一步收集的证据"),
        "Example" => Some("示例"),
        _ => None,
    }
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "错误",
        Severity::Warning => "警告",
        Severity::Info => "提示",
    }
}

fn boundary(b: Boundary) -> &'static str {
    match b {
        Boundary::ControlPlane => "API 服务器 / 控制平面",
        Boundary::Etcd => "etcd",
        Boundary::Scheduling => "调度约束",
        Boundary::NodeRuntime => "节点 / 容器运行时",
        Boundary::QuotaAdmission => "资源配额 / 准入",
        Boundary::ZoneNetworkStorage => "可用区 / 网络 / 存储",
        Boundary::ReadinessEndpoints => "就绪 / Service 端点",
        Boundary::Application => "应用",
    }
}

fn where_to_look(b: Boundary) -> &'static str {
    match b {
        Boundary::ControlPlane => "API 响应与错误、API 服务器的健康检查端点与日志",
        Boundary::Etcd => "与 API 服务器错误同时出现的 etcd 症状：端点状态、告警",
        Boundary::Scheduling => "Pod 的节点名字段、调度状况、调度失败事件",
        Boundary::NodeRuntime => "节点与 Pod 的状况、容器状态、kubelet 与运行时事件",
        Boundary::QuotaAdmission => "创建请求返回的 API 错误、副本集的创建失败事件、命名空间配额",
        Boundary::ZoneNetworkStorage => "按节点和可用区分组的对象、卷声明与卷事件、网络沙箱事件",
        Boundary::ReadinessEndpoints => "Pod 就绪状况、探针事件、Service 选择算符、端点切片状况",
        Boundary::Application => "应用日志、退出码、链路追踪、服务等级目标与用户验证",
    }
}

fn article_limits(b: Boundary) -> &'static str {
    match b {
        Boundary::ControlPlane => "延迟来自 etcd、网络、准入还是客户端",
        Boundary::Etcd => "没有 etcd 自身信号时，无法判断是法定人数、磁盘还是网络的问题",
        Boundary::Scheduling => "选定节点后镜像能否拉取、应用能否运行",
        Boundary::NodeRuntime => "没有节点日志时，无法判断是镜像仓库、运行时还是主机的原因",
        Boundary::QuotaAdmission => "换一种请求大小或策略是否会被准入",
        Boundary::ZoneNetworkStorage => "物理拓扑：哪个可用区、路径或存储后端出了故障",
        Boundary::ReadinessEndpoints => "请求是否成功：有端点不等于响应正确",
        Boundary::Application => "5xx 来自代码、依赖还是数据",
    }
}

fn component(p: Part) -> &'static str {
    match p {
        Part::Client => "客户端 / kubectl",
        Part::ApiServer => "kube-apiserver",
        Part::Etcd => "etcd",
        Part::ControllerManager => "kube-controller-manager",
        Part::Scheduler => "kube-scheduler",
        Part::CloudControllerManager => "cloud-controller-manager",
        Part::Kubelet => "kubelet",
        Part::Runtime => "容器运行时（CRI）",
        Part::Containers => "容器",
        Part::ProxyCni => "kube-proxy / CNI",
        Part::ServiceSlice => "Service / EndpointSlice",
        Part::Volumes => "卷（CSI）",
    }
}

fn edge(f: Flow) -> &'static str {
    match f {
        Flow::DesiredState => "写入期望状态",
        Flow::Store => "存储状态",
        Flow::WatchWriteStatus => "监视 / 写回状态",
        Flow::WatchBind => "监视 / 绑定",
        Flow::WatchAssignedPods => "监视分配到本节点的 Pod / 写回状态",
        Flow::CriCalls => "CRI 调用",
        Flow::RunsContainers => "启动 / 停止",
        Flow::Mounts => "挂载",
        Flow::WatchServices => "监视 Service 与端点切片",
        Flow::Traffic => "转发到就绪端点",
    }
}

fn entry_source(s: &str) -> &'static str {
    match s {
        "event" => "事件",
        "created" => "创建",
        "deleted" => "删除",
        "condition" => "状况变化",
        "container-started" => "容器启动",
        "container-terminated" => "容器终止",
        "log" => "日志",
        _ => "事实",
    }
}

fn secret_kind(id: &str) -> &'static str {
    match id {
        "secret-data" => "Secret 数据值",
        "docker-config" => "镜像仓库凭据（.dockerconfigjson）",
        "kubeconfig-credential" => "kubeconfig 凭据",
        "bearer-token" => "Bearer 令牌",
        "basic-auth" => "Basic 认证头",
        "jwt" => "JSON Web Token",
        "private-key" => "PEM 私钥",
        "token" => "已知服务的令牌",
        "url-credential" => "URL 中的密码",
        "connection-string" => "连接串中的密码",
        "env-secret" => "名称像机密的值（环境变量、配置）",
        "annotation-secret" => "注解中的机密",
        "ip-address" => "IP 地址",
        "internal-hostname" => "内部主机名",
        "email" => "电子邮件地址",
        // A token rule's id (`github-pat`, from gitleaks' rule set), shown beside this name.
        _ => "已知服务的令牌",
    }
}

fn fact_name(kind: FactKind) -> &'static str {
    match kind {
        FactKind::Scheduled => "已调度到节点",
        FactKind::ContainerRunning => "容器在运行",
        FactKind::PodReady => "Pod 已就绪",
        FactKind::SelectedByService => "被 Service 选中",
        FactKind::AddressPresent => "地址出现在其 EndpointSlice 中",
        FactKind::EligibleForTraffic => "具备接收流量的资格（就绪端点）",
        FactKind::BusinessResponse => "业务响应（粘贴的请求）",
    }
}

fn fact_state(state: FactState) -> &'static str {
    match state {
        FactState::Yes => "是",
        FactState::No => "否",
        FactState::Unknown => "本输入无法判断",
    }
}

pub const ZH: Texts = Texts {
    language_name: "中文",
    language_label: "语言",
    page_title: "Faultline — 在浏览器中诊断 Kubernetes 故障",
    tagline: "粘贴 kubectl 的输出，查看证据指向哪个故障边界。任何数据都不会离开本页面。",
    skip_to_diagnosis: "跳到诊断",
    sample_label: "示例故障",
    sample_none: "— 你自己的输入 —",
    sample_title,
    clear_all: "全部清除",
    inputs_aria: "输入",
    results_aria: "诊断",
    paste_label: "粘贴 kubectl 的输出",
    paste_reads: "可以读取 `kubectl describe`、`get -o yaml|json`、`get` 表格、事件、`kubectl` 的报错和日志；一次粘贴多条命令的输出也可以。",
    example_before: "第一次使用？",
    example_link: "打开一个示例故障",
    diagnosis_cue: |findings, boundaries, boundary| match (findings, boundaries) {
        (0, _) => "查看诊断".to_string(),
        (n, 1) => format!("诊断：{n} 个发现，{boundary}"),
        (n, b) => format!("诊断：{n} 个发现，涉及 {b} 个故障边界"),
    },
    input_format,
    evidence_label,
    sample_note: "你正在查看一个示例故障。",
    sample_note_more: "粘贴、拖入或选择你自己的输出：它会替换示例。",
    sample_removed: "已移除示例",
    restore: "恢复",
    previous_incident: |n| format!("新的事件：上一个事件（{n} 个输入）已暂存。"),
    restore_previous: "恢复它",
    join_previous: "把这些输入加入其中",
    follow_up_badge: "下一步",
    follow_up_badge_title: "本事件报告中某个下一步命令的输出",
    confirm_sample: "打开这个示例？你自己的输入会被暂存，粘贴框下方的“恢复它”可以找回。",
    paste_its_output: "粘贴它的输出",
    paste_its_output_aria: |cmd| format!("粘贴 {cmd} 的输出"),
    output_of: "命令输出：",
    follow_up_placeholder: "运行这条命令，把输出粘贴到这里：报告会更新，并说明有什么变化。",
    follow_up_done: "完成",
    what_changed: "有什么变化",
    guide_title: "我该粘贴什么？",
    guide_intro: "选择与你的症状最接近的一项，运行其中的命令；把 NS、POD、SVC、DEPLOY、NODE、PVC 和 KEY=VALUE（选择算符）换成你的名称，然后把所有输出一次粘贴进来。",
    guide_redact: "所有内容都只留在本页面中。把输出粘贴到其他地方（工单、聊天）之前，请先脱敏：密钥面板或 `faultline redact` 会替换其中的密钥。",
    guide_close: "关闭",
    guide_symptom,
    guide_collects,
    unread_title: "没有读取的内容",
    unread_range: |source, line, end| {
        if line == end { format!("{source} 第 {line} 行") } else { format!("{source} 第 {line}–{end} 行") }
    },
    inconclusive_offer: "要作出判断，请粘贴能显示对象本身的输出：",
    paste_placeholder: "kubectl get pod web-7d9f -n shop -o yaml   →   把输出粘贴到这里",
    drop_prefix: "……或把文件拖到这里，或",
    choose_files: "选择文件",
    or: "，或",
    a_folder: "选择文件夹",
    choose_files_aria: "选择要分析的文件",
    choose_folder_aria: "选择要分析的文件夹（集群信息转储或支持包）",
    no_input_yet: "还没有输入。",
    input_problems: "输入问题",
    remove: |name| format!("移除 {name}"),
    documents: |n| format!("{n} 个文档"),
    lines_not_read: |n| format!("{n} 行未读取"),
    unread_line: "未读取：Faultline 不认识这种格式，或这些行所属的对象不在输入中",
    no_objects: "没有对象",
    container_log: "容器日志：不分析",
    show_input: "输入查看器",
    viewer_back: "返回报告（Esc）",
    large_paste_kept: |name, mb| format!("你粘贴的 {mb:.1} MB 文本作为输入 {name} 保存在粘贴框之外，页面因此保持流畅。"),
    large_paste_show: "查看",
    large_paste_edit: "在粘贴框中编辑（文本这么大时会较慢）",
    input_waiting: "尚未分析",
    views_aria: "视图",
    view_findings: "发现",
    view_diagram: "架构图",
    view_timeline: "时间线",
    view_table: "边界表",
    view_rules: "规则",
    rules_title: "Faultline 使用的全部规则",
    rules_intro: "每条规则说明一种状况、它指向的故障边界，以及它的证据无法确定的内容。打开示例，可以看到它在真实输入上触发。",
    rules_index: "目录",
    rules_back_to_index: "回到目录",
    open_rule_sample: "打开能触发这条规则的示例",
    diagnosis: "诊断",
    headline_before: "证据指向",
    headline_after: " 边界 ",
    headline_end: "。",
    paste_to_start: "粘贴或拖入 kubectl 的输出以开始。",
    no_findings: "没有发现：本输入中没有证据指向故障。",
    independent_faults: |n| format!("{n} 个相互独立的故障。"),
    paste_next_label: "最可能作出判断的一次粘贴：",
    headline_most_severe: "最严重的在",
    faults_count: |faults, boundaries| format!("{boundaries} 个边界上有 {faults} 个相互独立的故障"),
    boundary_faults: |faults, findings| format!("{faults} 个故障 · {findings} 项发现"),
    summary_aria: "摘要",
    by_rule: "按规则：",
    group_title: |n, kind, owner| format!("{owner} 的 {n} 个 {kind}"),
    group_show: |n| format!("显示其余 {n} 项"),
    group_hide: "收起其余各项",
    no_match: "没有符合筛选条件的发现。",
    filter_aria: "筛选报告",
    filter_severity: "严重程度",
    search_label: "搜索",
    search_placeholder: "搜索发现、对象和消息（/）",
    findings_shown: |shown, total| {
        if shown == total {
            format!("共 {total} 项发现")
        } else {
            format!("{total} 项发现中的 {shown} 项")
        }
    },
    clear_filter: "清除筛选",
    evidence: "证据",
    cannot_establish: "这些证据不能确定什么",
    next_steps: "下一步",
    about_rule: "关于规则",
    docs_loading: "正在载入规则说明……",
    secrets_aria: "输入中的机密",
    secrets_title: "机密",
    secrets_none: "输入中没有发现机密。",
    secrets_scanning: "正在输入中查找机密…",
    secrets_all_redacted: "输入已脱敏：其中不再有机密。",
    secrets_found: |n| format!("在输入中发现 {n} 处机密。分享输入或由它生成的任何内容之前，请先脱敏。"),
    redact: "脱敏",
    undo_redaction: "撤销脱敏",
    include_network: "同时脱敏 IP 地址、内部主机名和电子邮件地址",
    secret_kind,
    export_label: "导出",
    copy_markdown: "复制 Markdown",
    export_redacted: "基于脱敏后的输入生成，并在开头注明",
    symptom_of: |n| format!("这是发现 {n} 的症状，由它解释"),
    confidence: "置信度",
    confidence_level: |c| match c {
        faultline_report::Confidence::Established => "已确认",
        faultline_report::Confidence::Likely => "很可能",
        faultline_report::Confidence::Possible => "可能",
    },
    decide_title: "起决定作用的命令",
    decide_between: |a, b| format!("发现 {a} 和发现 {b} 都能解释所见的失败。用一条命令即可区分二者："),
    decide_if_shown: |n| format!("如果输出证实了发现 {n}："),
    decide_if_not: "如果没有证实：",
    ruled_out_title: "已考虑并排除",
    ruled_out_intro: "不是原因的显眼信号，以及输入显示正常工作的部分，每条都附有说明它的那一行。",
    copy: "复制",
    copied: "已复制",
    copy_aria: |cmd| format!("复制命令 {cmd}"),
    show_in_input: |source, line| format!("查看 {source} 第 {line} 行"),
    doc_section,
    severity,
    boundary,
    table_caption: "文章中的故障边界表，填入本输入的证据",
    col_boundary: "边界",
    col_symptoms: "本输入中看到的症状",
    col_first_evidence: "找到的第一条证据",
    col_cannot: "这些证据不能确定什么",
    col_next: "下一步检查什么",
    no_evidence: "本输入中没有证据",
    finding_link: |label| format!("发现 {label}"),
    where_to_look,
    article_limits,
    diagram_title: "逻辑架构",
    diagram_note: "这是 Kubernetes 的逻辑架构，不是本集群的物理拓扑。点亮的组件是发现所牵涉的组件；选择一个组件可查看它的发现。",
    component,
    edge,
    optional: "可选",
    more_nodes: |n, lit| match lit {
        0 => format!("另有 {n} 个"),
        _ => format!("+{n}，{lit} 个有发现"),
    },
    node_unnamed: "节点未知",
    pick_component: "选择一个组件，查看其背后的发现与证据。",
    component_quiet: "本输入中没有发现牵涉这个组件。",
    component_findings: |name, n| format!("{name}：{n} 个发现"),
    parts_list_note: "这是 Kubernetes 的逻辑架构，不是本集群的物理拓扑。窄屏上只列出发现所牵涉的组件，最严重的在前；选择一个组件可查看它的发现。",
    parts_none_lit: "没有发现牵涉任何组件。",
    parts_quiet: |parts| format!("未被牵涉：{}。", parts.join("、")),
    timeline_title: "时间线",
    filter_namespace: "命名空间",
    filter_kind: "类型",
    filter_boundary: "边界",
    filter_all: "全部",
    warnings_only: "只看警告",
    group_by_object: "按对象分道（属主链、节点）",
    zoom_in: "放大",
    zoom_out: "缩小",
    pan_earlier: "更早",
    pan_later: "更晚",
    zoom_reset: "全部时间",
    shown_of: |shown, total| format!("显示 {shown} / {total} 条"),
    no_entries: "没有匹配的时间线条目。",
    undated: "无时间",
    estimated: "≈ 按时长推算：",
    entry_source,
    source_line: "来源行",
    count: "次数",
    timeline_help: "方向键在条目间移动；+ 和 − 缩放，← 和 → 平移时间轴。",
    timeline_aria: "时间线条目",
    lanes_note: "泳道按输入中的 ownerReferences 分组；≈ 表示输入没有说明属主，按控制器生成的名称推测出的分组。",
    age_before_capture: |age| format!("采集前 {age}"),
    before_created: "早于其对象的创建",
    before_created_note: "被放在该对象创建之前：采集时间设得太早，或者这条事件属于此前同名的对象。保留在其时间所在的位置。",
    zone_label: "时区",
    zone_utc: "UTC",
    zone_local: |offset| format!("本地时间（UTC{offset}）"),
    order_label: "顺序",
    order_newest: "最新在前",
    order_oldest: "最早在前",
    capture_label: "采集时间",
    capture_basis: [
        "由你设置",
        "或更晚：输入中最新的时间戳",
        "或更晚：事件不会早于其对象",
        "未知：输入中没有绝对时间；条目按存在时长排序",
    ],
    capture_anchor: |subject, created, reason, age| {
        format!("（{subject} 创建于 {created}，其 {reason} 事件已存在 {age}）")
    },
    capture_input: "采集时间（UTC）",
    capture_placeholder: "2025-02-11T09:40:05Z",
    capture_set: "据此推算时长",
    capture_reset: "使用推断的时间",
    capture_invalid: "不是时间：请写成 2025-02-11T09:40:05Z（UTC）。",
    view_map: "对象关系图",
    map_note: "本输入中的对象以及输入所说明的关系：属主（ownerReferences）、节点，以及 Service 经由其 EndpointSlice 到 Pod 的链路。亮起的对象是发现所指的对象；选中一个对象可查看它的发现、它所在的输入行，以及 Service 或 Pod 的五个事实。",
    map_help: "用 Tab 键或方向键在对象之间移动；按回车或空格选中对象或展开分组。",
    map_workloads: "工作负载：属主、Pod 及其节点",
    map_services: "Service：EndpointSlice、端点与 Pod",
    map_col_endpoints: "端点",
    map_legend_lit: "亮起：有发现指向它",
    map_legend_missing: "虚线框：被引用，但本输入中没有",
    map_legend_inferred: "点线：推测（按 IP 地址匹配）",
    map_legend_selector: "点划线：选择算符（本输入中没有 EndpointSlice）",
    map_empty: "本输入中没有可绘制的对象。",
    map_section_empty: "本输入中没有。",
    map_show_more: |n| format!("再显示 {n} 组"),
    map_more_pods: |n, bad| match bad {
        0 => format!("▸ 另有 {n} 个 Pod"),
        bad => format!("▸ 另有 {n} 个 Pod，{bad} 个未就绪"),
    },
    map_more_endpoints: |n, bad| match bad {
        0 => format!("▸ 另有 {n} 个端点"),
        bad => format!("▸ 另有 {n} 个端点，{bad} 个未就绪"),
    },
    map_more_nodes: |n, bad| match bad {
        0 => format!("▸ 另有 {n} 个节点"),
        bad => format!("▸ 另有 {n} 个节点，{bad} 个未就绪"),
    },
    map_capped: |n| format!("还有 {n} 个：请按命名空间筛选"),
    map_expand: "展开",
    map_no_slice: "本输入中没有 EndpointSlice",
    map_missing: "本输入中没有",
    map_ready: |ready, all| format!("{ready}/{all} 就绪"),
    map_restarts: |n| format!("重启 {n} 次"),
    map_replicas: |desired, ready, available| {
        let n = |v: Option<u32>| v.map_or("?".to_string(), |v| v.to_string());
        format!("就绪 {}/{}，可用 {}", n(ready), n(desired), n(available))
    },
    map_pick: "选中一个对象，可查看它的发现、它所在的输入行，以及 Service 或 Pod 的五个事实。",
    map_read_at: "读取位置",
    map_not_in_input: "本输入中没有此对象：另一个对象引用了它。",
    map_findings: |n| format!("关于它的发现：{n} 个"),
    map_no_findings: "没有关于此对象的发现。",
    facts_title: "五个事实",
    facts_note: "仅依据本输入判断：“无法判断”表示输入没有说明，绝不等于“是”。",
    fact_name,
    fact_state,
    fact_objects: "涉及：",
    map_endpoint_of: "端点所属",
    map_endpoint_is: "对应",
    map_inferred: "按 IP 地址匹配（该端点没有 targetRef）：只是推测",
    map_conditions_note: "没有写出的状况按以下方式理解：ready 和 serving 为 true，terminating 为 false。",
    map_others: |n| format!("本输入中的其他对象（{n} 个）"),
    map_others_note: |n| format!("显示前 {n} 个，亮起的在前"),
    analysis_aria: "分析进度",
    analysis_step: |step| match step {
        "reading" => "正在读取输入",
        "relating" => "正在关联对象",
        "diagnosing" => "正在运行规则",
        "judging" => "正在权衡发现",
        "timeline" => "正在生成时间线",
        "scanning" => "正在查找机密",
        _ => "正在启动分析",
    },
    analysis_progress: |done, total, documents| format!("已读取 {done:.1} / {total:.1} MB · {documents} 个文档"),
    analysed_in: |seconds, scan| match scan {
        Some(scan) => format!("在本页中分析用时 {seconds:.2} 秒，随后查找机密用时 {scan:.2} 秒"),
        None => format!("在本页中分析用时 {seconds:.2} 秒"),
    },
    cancel: "取消",
    stale_running: "本次分析完成之前，下方显示的是你上次修改之前的输入的诊断结果。",
    stale_cancelled: "分析已取消。下方的诊断结果对应你上次修改之前的输入。",
    reanalyse: "重新分析",
    excerpt_loading: "正在读取文件的这一部分…",
    excerpt_gone: "暂时无法显示此文件的这些行：它的分析已取消或尚未完成。重新分析后即可查看。",
    show_more: |more, hidden| format!("再显示 {more} 条（还有 {hidden} 条未显示）"),
    too_large: |total, this, limit| {
        format!(
            "输入太大，无法在本页中分析（共 {total} MB，此输入 {this} MB；本页最多接受 {limit} MB）：\
             没有分析任何内容。请移除部分文件，或使用 `faultline` 命令行工具，它可以读取任意大小的导出"
        )
    },
    analysis_stopped: |why| {
        format!(
            "分析在完成之前停止了（{why}）；本页可能已耗尽内存。`faultline` 命令行工具可以读取任意大小的导出"
        )
    },
    worker_not_started: "本页无法启动分析用的 Web Worker",
    worker_stopped: "分析用的 Web Worker 已停止",
    unreadable_reason,
    object: |o| {
        if !o.name.is_empty() {
            return o.to_string();
        }
        match &o.namespace {
            Some(ns) => format!("命名空间 {ns} 中一个名称不详的 {}", o.kind),
            None => format!("一个名称不详的 {}", o.kind),
        }
    },
};

fn drop_failed(e: &str) -> String {
    format!("无法读取（{e}）；如果这是文件夹，请用“选择文件夹”而不是拖放")
}

/// Why a file was not read, in Chinese.
fn unreadable_reason(reason: &faultline_render::protocol::Unreadable) -> String {
    use faultline_render::protocol::Unreadable;
    match reason {
        Unreadable::Binary => {
            "看起来是二进制文件（含有 NUL 字节或不是 UTF-8 文本），不是 kubectl 输出；未分析".to_string()
        }
        Unreadable::TooLarge => "太大，此标签页的内存放不下".to_string(),
        Unreadable::NotAFile => "不是文件".to_string(),
        Unreadable::ReadFailed(why) => format!("无法读取（{why}）"),
        Unreadable::DropFailed(why) => drop_failed(why),
    }
}

/// An input's format badge in Chinese (the engine's ids: `faultline_ingest::Format::id`); an id this
/// table does not know is shown as it is.
fn input_format(id: &str) -> String {
    match id {
        "yaml" => "YAML",
        "yaml-list" => "YAML 列表",
        "yaml-documents" => "多个 YAML 文档",
        "json" => "JSON",
        "json-list" => "JSON 列表",
        "events-table" => "事件表",
        "describe" => "describe 输出",
        "get-table" => "get 表格",
        "kubectl-messages" => "kubectl 消息",
        "container-log" => "容器日志",
        "command-output" => "命令输出",
        "mixed" => "多种格式",
        "fragments" => "片段",
        "text" => "文本",
        "binary" => "二进制",
        "empty" => "空",
        other => other,
    }
    .to_string()
}

/// An evidence label in Chinese. The engine writes a few labels in words (an events table's row, a
/// log's lines, a kubectl message); a field path (`status.phase`) is Kubernetes' and stays as it is.
fn evidence_label(label: &str) -> String {
    if let Some(row) = label.strip_prefix("events table: ") {
        return format!("事件表：{row}");
    }
    if let Some(message) = label.strip_prefix("kubectl: ") {
        return format!("kubectl 消息：{message}");
    }
    if let Some(id) = label.strip_prefix("known:") {
        return format!("已知故障：{id}");
    }
    let parts = [
        (": terminal error", "终止错误"),
        (": last line", "最后一行"),
        (": first frame", "第一个栈帧"),
        (": top of the exception chain", "异常链顶端"),
        (": panic message", "panic 消息"),
        (": context", "上下文"),
    ];
    for (suffix, words) in parts {
        if let Some(at) = label.strip_suffix(suffix) {
            return format!("{}：{words}", log_label(at));
        }
    }
    match label {
        "kubectl" => "kubectl 消息".to_string(),
        "output" => "输出".to_string(),
        _ => label.to_string(),
    }
}

/// Whose log a label names: `log of pod/web container app`, `log (recognised by its shape)`, `log`,
/// or the command that printed it (kept as it is).
fn log_label(at: &str) -> String {
    if let Some(rest) = at.strip_prefix("log of ") {
        return match rest.split_once(" container ") {
            Some((object, container)) => format!("{object} 容器 {container} 的日志"),
            None => format!("{rest} 的日志"),
        };
    }
    match at {
        "log (recognised by its shape)" => "日志（按其形态识别）".to_string(),
        "log" => "日志".to_string(),
        command => command.to_string(),
    }
}
