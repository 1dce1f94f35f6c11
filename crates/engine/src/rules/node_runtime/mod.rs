//! Rules at the node / container runtime boundary: the node was chosen, running the Pod there failed.

pub mod image_pull_failed;
