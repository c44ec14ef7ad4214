//! Bytes to text: BOM, UTF-16, invalid UTF-8, and mojibake (UTF-8 read as Windows-1252 and saved
//! again, some bytes lost). Line structure is preserved so every later location stays true.

/// Decoded text plus what was repaired, by 1-based line.
#[derive(Debug, Default)]
pub struct Decoded {
    pub text: String,
    pub repairs: Vec<Repair>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    pub line: usize,
    /// Stable diagnostic code: `mojibake-repaired`, `bytes-recovered`, `invalid-utf8`, `utf16`, `bom`, `binary`.
    pub code: &'static str,
    pub message: String,
}

/// Decodes a doc's bytes. Never fails: what cannot be decoded is replaced and reported.
pub fn decode(bytes: &[u8]) -> Decoded {
    // Placeholder until the text layer lands: plain lossy UTF-8 without repairs.
    Decoded {
        text: String::from_utf8_lossy(bytes).into_owned(),
        repairs: Vec::new(),
    }
}
