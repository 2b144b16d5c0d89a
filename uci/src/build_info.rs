//! The `compiler` command: how this binary was built (`build.rs`), as
//! Stockfish's command of the same name tells.

/// The instruction-set extensions that change the engine's speed, in the
/// order of their arrival; the build's others are not listed.
const EXTENSIONS: [&str; 13] = [
    "sse2", "ssse3", "sse4.1", "sse4.2", "popcnt", "avx", "avx2", "fma", "bmi1", "bmi2", "avx512f",
    "avx512bw", "neon",
];

/// The lines `compiler` prints.
pub fn describe() -> String {
    let features: Vec<&str> = env!("HOEVEN_TARGET_FEATURES").split(',').collect();
    let extensions: Vec<&str> = EXTENSIONS
        .iter()
        .copied()
        .filter(|e| features.contains(e))
        .collect();
    let profile_guided = env!("HOEVEN_PROFILE_GUIDED") == "true";
    format!(
        "Compiled by: {}\nTarget: {}\nInstruction sets: {}\nProfile-guided: {}",
        env!("HOEVEN_RUSTC"),
        env!("HOEVEN_TARGET"),
        if extensions.is_empty() {
            "none beyond the target's base".to_string()
        } else {
            extensions.join(" ")
        },
        if profile_guided {
            "yes (make profile-build)"
        } else {
            "no"
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_compiler_target_and_the_extensions_this_build_has() {
        let text = describe();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].starts_with("Compiled by: rustc "), "{text}");
        assert!(
            lines[1].starts_with("Target: ") && lines[1].len() > 8,
            "{text}"
        );
        let listed = lines[2].strip_prefix("Instruction sets: ").unwrap();
        for (extension, built_with) in [
            ("popcnt", cfg!(target_feature = "popcnt")),
            ("sse4.2", cfg!(target_feature = "sse4.2")),
            ("avx2", cfg!(target_feature = "avx2")),
        ] {
            assert_eq!(
                listed.split(' ').any(|e| e == extension),
                built_with,
                "{extension}: {text}"
            );
        }
    }
}
