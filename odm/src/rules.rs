#![doc = include_str!("rules.md")]
