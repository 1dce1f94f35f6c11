//! The words of the timeline: the state changes the engine places on it, and how a time was
//! estimated. Events keep their own messages, as Kubernetes wrote them.

use faultline_report::Text;

faultline_report::messages! {
    /// The timeline.
    pub enum Msg {
        ContainerStarted { container: Text } = "timeline.container-started" {
            en: "container {container} started",
            zh: "容器 {container} 已启动",
        },
        ContainerExited { container: Text, code: i32 } = "timeline.container-exited" {
            en: "container {container} exited with code {code}",
            zh: "容器 {container} 已退出，退出码 {code}",
        },
        /// A time placed from an age (`4m31s`) before the capture moment, which the user set, or which
        /// is the earliest an age allows (`anchored`), or the newest timestamp in the input
        /// ([`faultline_report::CaptureBasis`]).
        AgeBefore { age: String, capture: String, set_by_user: bool, anchored: bool } = "timeline.age-before" {
            en: {
                let basis = match (*set_by_user.0, *anchored.0) {
                    (true, _) => "the capture time you set",
                    (false, true) => "the earliest capture the ages allow: no event before its object's creation",
                    (false, false) => "the newest timestamp in the input",
                };
                format!("age {age} before {capture}, {basis}")
            },
            zh: {
                let basis = match (*set_by_user.0, *anchored.0) {
                    (true, _) => "你设置的采集时间",
                    (false, true) => "存在时长允许的最早采集时间：事件不早于其对象的创建",
                    (false, false) => "输入中最新的时间戳",
                };
                format!("由存在时长 {age} 从 {capture}（{basis}）倒推")
            },
        },
        /// An age with no absolute time to place it against.
        AgeOnly { age: String } = "timeline.age-only" {
            en: "age {age}; the input has no absolute time to place it against",
            zh: "存在时长 {age}；输入中没有可以据以定位的绝对时间",
        },
    }
}
