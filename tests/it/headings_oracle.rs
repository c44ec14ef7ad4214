//! The reader's line scanner (headings, fenced code) against pulldown-cmark as an oracle: both
//! must find the same ATX headings on the seeds and on every corpus doc, except where a closing
//! fence carries a stray word ("```l"), which the reader closes on purpose.

use aclgen::read::markdown::Doc;
use pulldown_cmark::{Event, Options, Parser, Tag};
use std::path::{Path, PathBuf};

fn headings_by_reader(text: &str) -> Vec<(usize, usize)> {
    Doc::parse(text)
        .sections
        .iter()
        .map(|s| (s.line + 1, s.level))
        .collect()
}

fn headings_by_cmark(text: &str) -> Vec<(usize, usize)> {
    Parser::new_ext(text, Options::empty())
        .into_offset_iter()
        .filter_map(|(ev, range)| match ev {
            Event::Start(Tag::Heading { level, .. }) => Some((
                text[..range.start].matches('\n').count() + 1,
                level as usize,
            )),
            _ => None,
        })
        .collect()
}

/// A closing fence followed by a word, then a blank line or a heading.
fn has_stray_word_fence(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.windows(2).any(|w| {
        let t = w[0].trim();
        t.starts_with("```")
            && t.len() > 3
            && !t[3..].contains(' ')
            && (w[1].trim().is_empty() || w[1].starts_with('#'))
    })
}

fn docs_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn seed_headings_match_pulldown_cmark() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for p in docs_in(&root.join("specs/docs")) {
        let text = std::fs::read_to_string(&p).unwrap();
        // Seed 002 is scraped text without `#`: the reader's fallback finds titles pulldown-cmark cannot.
        if headings_by_cmark(&text).is_empty() {
            continue;
        }
        assert_eq!(
            headings_by_reader(&text),
            headings_by_cmark(&text),
            "{}",
            p.display()
        );
    }
}

#[test]
fn corpus_headings_match_pulldown_cmark() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !root.is_dir() {
        println!("corpus heading test skipped: {} not found", root.display());
        return;
    }
    let (mut same, mut stray) = (0, 0);
    for dir in ["ops-nn/docs", "ops-nn-2025-12/docs"] {
        for p in docs_in(&root.join(dir)) {
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            if headings_by_reader(&text) == headings_by_cmark(&text) {
                same += 1;
            } else {
                assert!(
                    has_stray_word_fence(&text),
                    "headings differ from pulldown-cmark: {}",
                    p.display()
                );
                stray += 1;
            }
        }
    }
    println!("headings equal to pulldown-cmark's: {same}; differing only after a stray-word fence: {stray}");
}
