//! Writing a project without losing the user's work: a generated file is written when
//! it is missing, rewritten only while it is exactly what the scaffold wrote last time
//! (its checksum in `PROJECT`), and otherwise kept as the user left it; a file the
//! user owns from the start (`main.rs`, the module lists) only gains lines, inserted
//! above a marker comment (`// +wheelhouse:scaffold:<name>`), once.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::Error;
use crate::project::Project;

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Written for the first time.
    Created(String),
    /// Rewritten: it was still as generated, and the generator's text changed.
    Updated(String),
    /// Already what the generator would write.
    Unchanged(String),
    /// Changed by the user since it was generated: left alone.
    Kept(String),
    /// A line inserted above a marker.
    Inserted(String, String),
    /// A line the generator would insert, but the marker is gone: for the user to add.
    Missing(String, String),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Created(path) => write!(f, "  create  {path}"),
            Self::Updated(path) => write!(f, "  update  {path}"),
            Self::Unchanged(path) => write!(f, "  same    {path}"),
            Self::Kept(path) => write!(f, "  keep    {path} (changed since it was generated; not overwritten)"),
            Self::Inserted(path, line) => write!(f, "  insert  {path}: {}", line.trim()),
            Self::Missing(path, line) => write!(
                f,
                "  MANUAL  {path}: its scaffold marker is gone; add this line yourself: {}",
                line.trim()
            ),
        }
    }
}

/// The files of one project, and what was done to them.
pub struct Files<'a> {
    root: PathBuf,
    project: &'a mut Project,
    outcomes: Vec<Outcome>,
}

/// FNV-1a, 64 bits: a checksum that stays the same across releases and machines.
pub fn checksum(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.as_bytes() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

impl<'a> Files<'a> {
    /// The files under `root`, their checksums kept in `project`.
    pub fn new(root: &Path, project: &'a mut Project) -> Self {
        Self {
            root: root.to_owned(),
            project,
            outcomes: Vec::new(),
        }
    }

    /// The project as generated so far.
    pub fn project(&self) -> &Project {
        self.project
    }

    /// The project, to record what a generator adds.
    pub fn project_mut(&mut self) -> &mut Project {
        self.project
    }

    /// The project's directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// What was done to each file, in order.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    fn read(&self, path: &str) -> Result<Option<String>, Error> {
        let full = self.root.join(path);
        match std::fs::read_to_string(&full) {
            Ok(text) => Ok(Some(text)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(Error::Io { path: full, source }),
        }
    }

    fn write_file(&self, path: &str, text: &str) -> Result<(), Error> {
        let full = self.root.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|source| Error::Io {
                path: parent.to_owned(),
                source,
            })?;
        }
        std::fs::write(&full, text).map_err(|source| Error::Io { path: full, source })
    }

    /// Writes a generated file, unless the user changed it since it was generated.
    pub fn generated(&mut self, path: &str, text: &str) -> Result<(), Error> {
        let outcome = match self.read(path)? {
            None => {
                self.write_file(path, text)?;
                Outcome::Created(path.to_owned())
            }
            Some(current) if current == text => Outcome::Unchanged(path.to_owned()),
            Some(current) if self.project.files.get(path) == Some(&checksum(&current)) => {
                self.write_file(path, text)?;
                Outcome::Updated(path.to_owned())
            }
            Some(_) => {
                self.outcomes.push(Outcome::Kept(path.to_owned()));
                return Ok(());
            }
        };
        self.project.files.insert(path.to_owned(), checksum(text));
        self.outcomes.push(outcome);
        Ok(())
    }

    /// [`generated`](Self::generated) for Rust source, formatted as `cargo fmt` would
    /// (the project's `rustfmt.toml`), so that `cargo fmt --check` passes whatever the
    /// names made the lines' lengths.
    pub fn generated_rust(&mut self, path: &str, text: &str) -> Result<(), Error> {
        let formatted = self.rustfmt(text);
        self.generated(path, &formatted)
    }

    /// `text` through rustfmt with the project's configuration; as it is when rustfmt
    /// is not installed or refuses it (the templates are formatted already).
    fn rustfmt(&self, text: &str) -> String {
        use std::io::Write as _;
        use std::process::{Command, Stdio};
        let mut command = Command::new("rustfmt");
        command.args(["--edition", "2024", "--emit", "stdout", "--quiet"]);
        let config = self.root.join("rustfmt.toml");
        if config.exists() {
            command.arg("--config-path").arg(config);
        }
        let child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let Ok(mut child) = child else {
            return text.to_owned();
        };
        if let Some(mut stdin) = child.stdin.take()
            && stdin.write_all(text.as_bytes()).is_err()
        {
            return text.to_owned();
        }
        match child.wait_with_output() {
            Ok(output) if output.status.success() => {
                String::from_utf8(output.stdout).unwrap_or_else(|_| text.to_owned())
            }
            _ => text.to_owned(),
        }
    }

    /// Writes a file the user owns from then on (only when it does not exist yet):
    /// later generators insert lines into it at its markers.
    pub fn owned(&mut self, path: &str, text: &str) -> Result<(), Error> {
        let outcome = match self.read(path)? {
            None => {
                self.write_file(path, text)?;
                Outcome::Created(path.to_owned())
            }
            Some(current) if current == text => Outcome::Unchanged(path.to_owned()),
            Some(_) => Outcome::Kept(path.to_owned()),
        };
        self.outcomes.push(outcome);
        Ok(())
    }

    /// [`owned`](Self::owned) for Rust source, formatted as `cargo fmt` would.
    pub fn owned_rust(&mut self, path: &str, text: &str) -> Result<(), Error> {
        let formatted = self.rustfmt(text);
        self.owned(path, &formatted)
    }

    /// Inserts `line` above the marker `// +wheelhouse:scaffold:<marker>` of `path`,
    /// indented as the marker is, unless the file has the line already. With `sorted`,
    /// the line goes among the lines right above the marker in alphabetical order (as
    /// rustfmt orders `mod` declarations).
    pub fn insert(&mut self, path: &str, marker: &str, line: &str, sorted: bool) -> Result<(), Error> {
        let Some(text) = self.read(path)? else {
            self.outcomes.push(Outcome::Missing(path.to_owned(), line.to_owned()));
            return Ok(());
        };
        if text.lines().any(|existing| existing.trim() == line.trim()) {
            return Ok(());
        }
        let tag = format!("// +wheelhouse:scaffold:{marker}");
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let Some(at) = lines.iter().position(|l| l.trim() == tag) else {
            self.outcomes.push(Outcome::Missing(path.to_owned(), line.to_owned()));
            return Ok(());
        };
        let indent: String = lines[at].chars().take_while(|c| c.is_whitespace()).collect();
        let new = format!("{indent}{}", line.trim());
        let mut position = at;
        if sorted {
            while position > 0 {
                let above = &lines[position - 1];
                let same_shape = !above.trim().is_empty() && !above.trim().starts_with("//");
                if same_shape && above.trim() > new.trim() {
                    position -= 1;
                } else {
                    break;
                }
            }
        }
        lines.insert(position, new);
        let mut out = lines.join("\n");
        if text.ends_with('\n') {
            out.push('\n');
        }
        self.write_file(path, &out)?;
        self.outcomes.push(Outcome::Inserted(path.to_owned(), line.to_owned()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("scaffold-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_changed_by_the_user_is_never_overwritten() {
        let dir = scratch("generated");
        let mut project = Project::default();
        let mut files = Files::new(&dir, &mut project);
        files.generated("a.rs", "one\n").unwrap();
        files.generated("a.rs", "two\n").unwrap(); // still as generated: updated
        assert_eq!(std::fs::read_to_string(dir.join("a.rs")).unwrap(), "two\n");
        std::fs::write(dir.join("a.rs"), "mine\n").unwrap();
        files.generated("a.rs", "three\n").unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("a.rs")).unwrap(), "mine\n");
        assert_eq!(
            files.outcomes(),
            [
                Outcome::Created("a.rs".into()),
                Outcome::Updated("a.rs".into()),
                Outcome::Kept("a.rs".into())
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn lines_go_above_their_marker_once_and_in_order() {
        let dir = scratch("insert");
        let mut project = Project::default();
        let mut files = Files::new(&dir, &mut project);
        files
            .owned(
                "m.rs",
                "pub mod b;\n// +wheelhouse:scaffold:modules\n\nfn f() {\n    // +wheelhouse:scaffold:calls\n}\n",
            )
            .unwrap();
        files.insert("m.rs", "modules", "pub mod c;", true).unwrap();
        files.insert("m.rs", "modules", "pub mod a;", true).unwrap();
        files.insert("m.rs", "modules", "pub mod a;", true).unwrap();
        files.insert("m.rs", "calls", "g();", false).unwrap();
        files.insert("m.rs", "gone", "h();", false).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("m.rs")).unwrap(),
            "pub mod a;\npub mod b;\npub mod c;\n// +wheelhouse:scaffold:modules\n\nfn f() {\n    g();\n    // +wheelhouse:scaffold:calls\n}\n"
        );
        assert_eq!(
            files.outcomes().last(),
            Some(&Outcome::Missing("m.rs".into(), "h();".into()))
        );
        // An owned file is never rewritten, even when the scaffold's text changes.
        files.owned("m.rs", "other\n").unwrap();
        assert!(std::fs::read_to_string(dir.join("m.rs")).unwrap().contains("g();"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
