//! Why the runtime could not start a container's process, in the OCI runtime's words as the
//! kubelet relays them (`state.terminated.message` of `StartError` / `ContainerCannotRun`, the
//! waiting message of `RunContainerError`, the `Failed` event): runc's `exec: "x": executable file
//! not found in $PATH`, `permission denied`, `no such file or directory` (a missing working
//! directory, mount point or entrypoint) and the kernel's `exec format error`.

/// What the runtime's message says stopped the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The command is not in the image (`executable file not found`, or `no such file or
    /// directory` for the command: Go's `exec: "x": stat x: …`, the kernel's `exec /x: …`).
    NotInImage,
    /// `permission denied`: not executable, or not permitted.
    NotExecutable,
    /// `no such file or directory` for a path other than the command.
    PathMissing,
    /// `exec format error`: built for another CPU architecture.
    WrongArchitecture,
}

impl StartError {
    /// The cause a runtime's message names, if it names one.
    pub fn read(message: &str) -> Option<Self> {
        let m = message.to_ascii_lowercase();
        if m.contains("executable file not found")
            || m.contains("no such file or directory") && (m.contains("exec: \"") || m.contains("exec /"))
        {
            Some(StartError::NotInImage)
        } else if m.contains("permission denied") {
            Some(StartError::NotExecutable)
        } else if m.contains("no such file or directory") {
            Some(StartError::PathMissing)
        } else if m.contains("exec format error") {
            Some(StartError::WrongArchitecture)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StartError;

    #[test]
    fn causes_from_runtime_messages() {
        assert_eq!(
            StartError::read("exec: \"wge\": executable file not found in $PATH: unknown"),
            Some(StartError::NotInImage)
        );
        assert_eq!(
            StartError::read("exec /app/run.sh: permission denied"),
            Some(StartError::NotExecutable)
        );
        assert_eq!(
            StartError::read("chdir to cwd (\"/srv\") set in config.json failed: no such file or directory"),
            Some(StartError::PathMissing)
        );
        assert_eq!(
            StartError::read("exec /bin/app: exec format error"),
            Some(StartError::WrongArchitecture)
        );
        assert_eq!(
            StartError::read("exec: \"/app/server\": stat /app/server: no such file or directory: unknown"),
            Some(StartError::NotInImage)
        );
        // A mount whose path merely holds "exec" is a missing path, not a missing command.
        assert_eq!(
            StartError::read("error during container init: error mounting \"/var/lib/kubelet/pods/1/volumes/exec-scripts\" to rootfs at \"/scripts\": no such file or directory"),
            Some(StartError::PathMissing)
        );
        assert_eq!(StartError::read("something else"), None);
    }
}
