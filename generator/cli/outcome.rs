//! How a command ends: exit 0, 1 (problems in the input, already reported) or 2 (usage or I/O).

/// Why a command failed, which decides its exit code.
#[derive(Debug)]
pub enum Failure {
    /// Problems in the input (already reported): exit 1.
    Input,
    /// Bad usage or an I/O error, with its message: exit 2.
    Usage(String),
}

impl Failure {
    pub fn usage(msg: impl Into<String>) -> Self {
        Failure::Usage(msg.into())
    }
}

pub type Outcome = Result<(), Failure>;

/// Every stage's error is a usage or I/O error at the command line (exit 2); problems in the
/// input come back as diagnostics, never as errors.
macro_rules! usage_errors {
    ($($ty:ty),* $(,)?) => {
        $(impl From<$ty> for Failure {
            fn from(e: $ty) -> Self {
                Failure::Usage(e.to_string())
            }
        })*
    };
}

usage_errors!(
    crate::specs::SpecsError,
    crate::emit::EmitError,
    crate::write::WriteError,
    crate::conform::ConformError,
    crate::rules::CallError,
    serde_json::Error,
    serde_yaml::Error,
);

impl From<crate::generate::GenError> for Failure {
    fn from(e: crate::generate::GenError) -> Self {
        Failure::Usage(e.to_string())
    }
}
