//! The one place CANN's code comes from: an installed CANN toolkit.
//!
//! aclgen ships none of CANN's headers, sources or libraries. What needs them (compiling generated
//! C++ against CANN's own headers, `sim --cann`, running a team's op_api unit tests) finds a
//! toolkit installed as CANN's installation guide lays it out: `--cann DIR`, else
//! `$ASCEND_HOME_PATH` (the toolkit's `set_env.sh` sets it), else `$ASCEND_TOOLKIT_HOME`. There is
//! no default folder: without a toolkit, the caller says so in one line ([`ToolkitError`]) and
//! the CLI exits 2.
//!
//! Layout read (`${INSTALL_DIR}` is the folder found):
//! - `include/aclnn/acl_meta.h`, `include/aclnn/aclnn_base.h`: the aclnn meta API (libnnopbase);
//! - `lib64/`: the prebuilt libraries (`libnnopbase.so`, `libopapi*.so`);
//! - the Ascend C kernel API, `kernel_operator.h`, under `include/ascendc/basic_api/interface/`,
//!   `asc/include/`, or `compiler/tikcpp/tikcfw/` (older releases);
//! - the host tiling and OpDef registration headers, `include/register/op_def_registry.h` and
//!   `include/tiling/` (or `include/ascendc/` in newer releases).
//!
//! Runs against a real toolkit are not tested here: the tests below use a fake tree.

use std::fmt;
use std::path::{Path, PathBuf};

/// What a caller needs of a toolkit; each is a set of files that must be there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Component {
    /// The aclnn meta API and opbase headers with `libnnopbase.so`.
    OpApi,
    /// The Ascend C kernel API (`kernel_operator.h`).
    KernelApi,
    /// Host-side registration and tiling headers (`register/op_def_registry.h`).
    Host,
}

impl Component {
    fn what(self) -> &'static str {
        match self {
            Component::OpApi => {
                "the aclnn meta API (include/aclnn/acl_meta.h, lib64/libnnopbase.so)"
            }
            Component::KernelApi => "the Ascend C kernel API (kernel_operator.h)",
            Component::Host => "the host registration headers (include/register/op_def_registry.h)",
        }
    }

    /// Files (relative to the toolkit's root) any one of which makes the component present;
    /// the first group must all exist, the alternatives are tried in order.
    fn required(self) -> &'static [&'static [&'static str]] {
        match self {
            Component::OpApi => &[
                &["include/aclnn/acl_meta.h"],
                &["include/aclnn/aclnn_base.h"],
                &["lib64/libnnopbase.so"],
            ],
            Component::KernelApi => &[&[
                "include/ascendc/basic_api/interface/kernel_operator.h",
                "asc/include/kernel_operator.h",
                "include/ascendc/kernel_operator.h",
                "compiler/tikcpp/tikcfw/kernel_operator.h",
            ]],
            Component::Host => &[&["include/register/op_def_registry.h"]],
        }
    }
}

/// Why no usable toolkit was found. Its message is one line, fit for `aclgen: …` and exit 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolkitError {
    /// Neither `--cann` nor the environment names a toolkit.
    NotSet,
    /// The folder named is not there.
    NotFound { root: PathBuf, from: &'static str },
    /// The folder is there but lacks what the caller needs.
    Incomplete {
        root: PathBuf,
        component: Component,
        looked_for: String,
    },
}

impl fmt::Display for ToolkitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolkitError::NotSet => f.write_str(
                "no CANN toolkit: pass --cann DIR or set ASCEND_HOME_PATH (source the toolkit's \
                 set_env.sh); aclgen ships none of CANN's code",
            ),
            ToolkitError::NotFound { root, from } => {
                write!(f, "no CANN toolkit at {} (from {from})", root.display())
            }
            ToolkitError::Incomplete {
                root,
                component,
                looked_for,
            } => write!(
                f,
                "the CANN toolkit at {} lacks {}: no {looked_for}",
                root.display(),
                component.what()
            ),
        }
    }
}

impl std::error::Error for ToolkitError {}

/// An installed CANN toolkit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toolkit {
    root: PathBuf,
}

/// The environment variables that name a toolkit, in the order they are read.
pub const ENV_VARS: [&str; 2] = ["ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"];

impl Toolkit {
    /// The toolkit `explicit` names, else the one the environment names.
    pub fn find(explicit: Option<&Path>) -> Result<Toolkit, ToolkitError> {
        Self::find_with(explicit, |name| std::env::var_os(name))
    }

    /// [`Toolkit::find`] with the environment given (tests pass their own).
    pub fn find_with(
        explicit: Option<&Path>,
        env: impl Fn(&str) -> Option<std::ffi::OsString>,
    ) -> Result<Toolkit, ToolkitError> {
        let (root, from) = match explicit {
            Some(dir) => (dir.to_path_buf(), "--cann"),
            None => ENV_VARS
                .iter()
                .find_map(|name| {
                    env(name)
                        .filter(|v| !v.is_empty())
                        .map(|v| (PathBuf::from(v), *name))
                })
                .ok_or(ToolkitError::NotSet)?,
        };
        if !root.is_dir() {
            return Err(ToolkitError::NotFound { root, from });
        }
        Ok(Toolkit { root })
    }

    /// The toolkit, checked to have every component of `needs`.
    pub fn find_with_components(
        explicit: Option<&Path>,
        needs: &[Component],
    ) -> Result<Toolkit, ToolkitError> {
        let tk = Self::find(explicit)?;
        for c in needs {
            tk.component(*c)?;
        }
        Ok(tk)
    }

    /// The toolkit's root (`${INSTALL_DIR}`).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `include/`: aclnn, opbase, register, tiling headers.
    pub fn include_dir(&self) -> PathBuf {
        self.root.join("include")
    }

    /// `lib64/`: the prebuilt libraries to link.
    pub fn lib_dir(&self) -> PathBuf {
        self.root.join("lib64")
    }

    /// The folder of a component's first file (for `kernel_operator.h`: its include folder), or
    /// why the toolkit lacks it.
    pub fn component(&self, component: Component) -> Result<PathBuf, ToolkitError> {
        let mut first = None;
        for alternatives in component.required() {
            let found = alternatives
                .iter()
                .map(|rel| self.root.join(rel))
                .find(|p| p.is_file());
            match found {
                Some(path) => {
                    first.get_or_insert_with(|| path.parent().map(Path::to_path_buf));
                }
                None => {
                    return Err(ToolkitError::Incomplete {
                        root: self.root.clone(),
                        component,
                        looked_for: alternatives.join(" or "),
                    })
                }
            }
        }
        Ok(first.flatten().unwrap_or_else(|| self.root.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn touch(root: &Path, rel: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "").unwrap();
    }

    /// A toolkit laid out as the installation guide documents, with nothing in its files.
    fn fake_toolkit() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for rel in [
            "include/aclnn/acl_meta.h",
            "include/aclnn/aclnn_base.h",
            "lib64/libnnopbase.so",
            "include/ascendc/basic_api/interface/kernel_operator.h",
            "include/register/op_def_registry.h",
        ] {
            touch(dir.path(), rel);
        }
        dir
    }

    fn no_env(_: &str) -> Option<OsString> {
        None
    }

    #[test]
    fn found_through_the_environment_or_the_flag() {
        let tk = fake_toolkit();
        let root = tk.path().to_path_buf();
        let env = |name: &str| (name == "ASCEND_HOME_PATH").then(|| root.clone().into());
        let found = Toolkit::find_with(None, env).unwrap();
        assert_eq!(found.root(), tk.path());
        for c in [Component::OpApi, Component::KernelApi, Component::Host] {
            found.component(c).unwrap();
        }
        assert_eq!(
            found.component(Component::KernelApi).unwrap(),
            tk.path().join("include/ascendc/basic_api/interface")
        );
        // The flag wins over the environment.
        let other = tempfile::tempdir().unwrap();
        let env = |_: &str| Some(OsString::from("/nonexistent"));
        let flagged = Toolkit::find_with(Some(other.path()), env).unwrap();
        assert_eq!(flagged.root(), other.path());
    }

    #[test]
    fn not_found_says_where_it_looked() {
        assert_eq!(Toolkit::find_with(None, no_env), Err(ToolkitError::NotSet));
        assert!(ToolkitError::NotSet
            .to_string()
            .contains("ASCEND_HOME_PATH"));
        let env = |name: &str| (name == "ASCEND_TOOLKIT_HOME").then(|| "/no/such/cann".into());
        let err = Toolkit::find_with(None, env).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no CANN toolkit at /no/such/cann (from ASCEND_TOOLKIT_HOME)"
        );
        // An empty variable names nothing.
        let env = |_: &str| Some(OsString::new());
        assert_eq!(Toolkit::find_with(None, env), Err(ToolkitError::NotSet));
    }

    #[test]
    fn an_incomplete_toolkit_names_what_it_lacks() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "include/aclnn/acl_meta.h");
        let tk = Toolkit::find_with(Some(dir.path()), no_env).unwrap();
        let err = tk.component(Component::OpApi).unwrap_err();
        assert!(
            err.to_string().ends_with("no include/aclnn/aclnn_base.h"),
            "{err}"
        );
        let err = tk.component(Component::KernelApi).unwrap_err();
        assert!(err.to_string().contains("kernel_operator.h or"), "{err}");
        assert!(!err.to_string().contains('\n'));
    }
}
