//! Records how the binary was built, for the `compiler` command: the
//! compiler, the target and its instruction-set extensions, and whether
//! the build was profile-guided (`make profile-build`). A tournament's
//! operator can then tell which build a binary is without running a bench.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "an unknown rustc".to_string());
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    let profile_guided = flags.contains("profile-use=");
    println!("cargo:rustc-env=HOEVEN_RUSTC={version}");
    println!("cargo:rustc-env=HOEVEN_TARGET={}", var("TARGET"));
    println!(
        "cargo:rustc-env=HOEVEN_TARGET_FEATURES={}",
        var("CARGO_CFG_TARGET_FEATURE")
    );
    println!("cargo:rustc-env=HOEVEN_PROFILE_GUIDED={profile_guided}");
}
