//! What Go's YAML parser says of an apply body that is not YAML. kube-apiserver reads
//! it with `sigs.k8s.io/yaml`, whose parser (goyaml.v2) is a translation of libyaml;
//! `libyaml-safer` is a translation of the same C code, so the problem it finds, and
//! where, are libyaml's, and [`syntax_error`] words them as goyaml's `parser.fail`
//! does: `yaml: line 1: did not find expected ',' or ']'`.

use libyaml_safer::{ErrorKind, Parser};

/// Go's complaint about `text` when libyaml cannot parse it (a stream of documents,
/// as goyaml reads one); None when it parses.
pub(crate) fn syntax_error(text: &str) -> Option<String> {
    let mut input = text.as_bytes();
    let mut parser = Parser::new();
    parser.set_input_string(&mut input);
    let error = parser.find_map(Result::err)?;
    Some(format!("yaml: {}", fail(&error)))
}

/// goyaml.v2's `parser.fail`: the line of the problem (a scanner's problem mark is
/// one line short of a parser's, so it counts one more), else of its context, then
/// the problem; nothing for the line when both are on the first line.
fn fail(error: &libyaml_safer::Error) -> String {
    let problem_line = error.problem_mark().map_or(0, |mark| mark.line);
    let context_line = error.context_mark().map_or(0, |mark| mark.line);
    let line = if problem_line != 0 {
        problem_line + u64::from(error.kind() == ErrorKind::Scanner)
    } else {
        context_line
    };
    let problem = match error.problem() {
        "" => "unknown problem parsing YAML content",
        problem => problem,
    };
    if line == 0 {
        problem.to_owned()
    } else {
        format!("line {line}: {problem}")
    }
}

#[cfg(test)]
mod tests {
    use super::syntax_error;

    /// Each answer is what kube-apiserver 1.32's YAML decoder says of the body.
    #[test]
    fn problems_are_worded_as_goyaml_words_them() {
        assert_eq!(
            syntax_error("a: [b\n").as_deref(),
            Some("yaml: line 1: did not find expected ',' or ']'")
        );
        assert_eq!(syntax_error("a: b\nc: d\n"), None);
        assert_eq!(syntax_error(""), None);
    }

    /// Nesting as deep as the 8 KiB a caller asks about is answered, open or closed
    /// (libyaml keeps its states on a heap stack, not the call stack).
    #[test]
    fn deep_nesting_is_answered() {
        let open = "[".repeat(8 * 1024);
        assert!(syntax_error(&open).is_some());
        let closed = format!("{}{}", "[".repeat(4 * 1024), "]".repeat(4 * 1024));
        assert_eq!(syntax_error(&closed), None);
    }
}
