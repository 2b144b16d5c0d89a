//! How much memory the machine can still give, so that a `Hash` too large
//! for it is refused up front. Without this, Linux's overcommit lets a huge
//! allocation succeed and the process is killed later, when the table's
//! pages are first written.

/// Bytes that can be allocated and used now, where the system tells
/// (Linux: `MemAvailable`, capped by a cgroup v2 memory limit); `None`
/// elsewhere, where only the allocation itself can fail.
pub fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let mut available = meminfo_field(&meminfo, "MemAvailable:")?;
    if let Some(room) = cgroup_room() {
        available = available.min(room);
    }
    Some(available)
}

/// A `/proc/meminfo` field in bytes (the file gives kB).
fn meminfo_field(meminfo: &str, name: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with(name))?;
    let kb: u64 = line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kb.checked_mul(1024)
}

/// What the process's cgroup (v2) may still use: its limit minus its use.
fn cgroup_room() -> Option<u64> {
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = cgroup.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = std::path::Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
    let max = std::fs::read_to_string(dir.join("memory.max")).ok()?;
    let max: u64 = max.trim().parse().ok()?; // "max" means no limit
    let current: u64 = std::fs::read_to_string(dir.join("memory.current"))
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(max.saturating_sub(current))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_fields_are_read_in_bytes() {
        let text = "MemTotal:       24576000 kB\nMemAvailable:    1000 kB\n";
        assert_eq!(meminfo_field(text, "MemAvailable:"), Some(1_024_000));
        assert_eq!(meminfo_field(text, "SwapTotal:"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_reports_some_memory() {
        let bytes = available_bytes().expect("/proc/meminfo has MemAvailable");
        assert!(bytes > 1 << 20, "{bytes}");
    }
}
