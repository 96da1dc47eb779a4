//! Texts with parameters, rendered in the reader's language.
//!
//! A [`Template`] is one sentence in every language rigplan speaks, with named placeholders
//! (`{cpu}`, `{socket}`) that each language orders as its grammar wants. A [`Text`] is a
//! template with its arguments; it renders in any [`Lang`] when a front end shows it, so the
//! core decides *what* to say and never *in which language*. An argument is either plain
//! (a part name, a formatted figure: the same in every language) or another `Text` (a
//! phrase that itself translates, such as "the cluster").
//!
//! The templates live beside the rules that use them, declared with [`templates!`], which
//! also lists them for the tests: each template names the finding code it belongs to, and
//! `analysis::codes` holds every table, so a test checks that each template's placeholders
//! are the same in both languages and that every registered code has its templates.

use super::{Lang, fill_named};
use std::sync::Arc;

/// One sentence in every language, with named placeholders.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Template {
    /// The finding code the sentence belongs to (`cooler-socket-mismatch`), or `""` for a
    /// phrase shared by several findings.
    pub code: &'static str,
    /// English.
    pub en: &'static str,
    /// Simplified Chinese.
    pub zh: &'static str,
}

impl Template {
    /// The template in a language.
    #[must_use]
    pub fn get(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::ZhCn => self.zh,
        }
    }
}

/// An argument of a [`Text`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    /// The same in every language: a part name, a socket, a figure already formatted.
    Plain(String),
    /// A phrase that translates (shared: the copies of a finding about identical node groups
    /// share the sentence their node prefix wraps).
    Text(Arc<Text>),
    /// Items joined by the language's list separator (`, ` / `、`).
    List(Vec<Arg>),
}

impl Arg {
    fn render(&self, lang: Lang) -> String {
        match self {
            Self::Plain(s) => s.clone(),
            Self::Text(t) => t.render(lang),
            Self::List(items) => {
                items.iter().map(|a| a.render(lang)).collect::<Vec<_>>().join(LIST_SEPARATOR.get(lang))
            }
        }
    }
}

/// Turns a value into an [`Arg`]: strings are plain, a [`Text`] stays translatable.
pub trait IntoArg {
    /// The argument.
    fn into_arg(self) -> Arg;
}

impl IntoArg for String {
    fn into_arg(self) -> Arg {
        Arg::Plain(self)
    }
}

impl IntoArg for &String {
    fn into_arg(self) -> Arg {
        Arg::Plain(self.clone())
    }
}

impl IntoArg for &str {
    fn into_arg(self) -> Arg {
        Arg::Plain(self.to_owned())
    }
}

impl IntoArg for &crate::core::catalog::PartId {
    fn into_arg(self) -> Arg {
        Arg::Plain(self.to_string())
    }
}

impl IntoArg for Text {
    fn into_arg(self) -> Arg {
        Arg::Text(Arc::new(self))
    }
}

impl IntoArg for &Text {
    fn into_arg(self) -> Arg {
        Arg::Text(Arc::new(self.clone()))
    }
}

impl<T: IntoArg> IntoArg for Vec<T> {
    fn into_arg(self) -> Arg {
        Arg::List(self.into_iter().map(IntoArg::into_arg).collect())
    }
}

/// A template with its arguments. Equal texts say the same in every language, so a text is
/// the language-independent identity of a finding's sentence.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Text {
    template: &'static Template,
    args: Vec<(&'static str, Arg)>,
}

impl Text {
    /// The template without arguments yet.
    #[must_use]
    pub fn new(template: &'static Template) -> Self {
        Self { template, args: Vec::new() }
    }

    /// Adds the argument of placeholder `name`.
    #[must_use]
    pub fn arg(mut self, name: &'static str, value: impl IntoArg) -> Self {
        self.args.push((name, value.into_arg()));
        self
    }

    /// The template.
    #[must_use]
    pub fn template(&self) -> &'static Template {
        self.template
    }

    /// The finding code of the template (`""` for a shared phrase).
    #[must_use]
    pub fn code(&self) -> &'static str {
        self.template.code
    }

    /// The text with every `{node}` argument equal to `from` (a node group's name) made
    /// `to`, at any depth: the same finding about another, identical node group.
    #[must_use]
    pub fn renamed_node(&self, from: &str, to: &str) -> Self {
        fn rename(name: &str, arg: &Arg, from: &str, to: &str) -> Arg {
            match arg {
                Arg::Plain(s) if name == "node" && s == from => Arg::Plain(to.to_owned()),
                Arg::Plain(_) => arg.clone(),
                Arg::Text(t) if t.names_node() => Arg::Text(Arc::new(t.renamed_node(from, to))),
                Arg::Text(t) => Arg::Text(Arc::clone(t)),
                Arg::List(items) => Arg::List(items.iter().map(|a| rename(name, a, from, to)).collect()),
            }
        }
        let args = self.args.iter().map(|(n, a)| (*n, rename(n, a, from, to))).collect();
        Self { template: self.template, args }
    }

    /// Whether the text has a `{node}` argument, at any depth.
    #[must_use]
    pub fn names_node(&self) -> bool {
        fn arg_names_node(a: &Arg) -> bool {
            match a {
                Arg::Plain(_) => false,
                Arg::Text(t) => t.names_node(),
                Arg::List(items) => items.iter().any(arg_names_node),
            }
        }
        self.args.iter().any(|(n, a)| *n == "node" || arg_names_node(a))
    }

    /// Whether the text is `{node}: {text}` ([`in_node`]) whose inner text names no node:
    /// its rendering for another node is the other name and the same rest.
    #[must_use]
    pub fn is_plain_node_prefix(&self) -> bool {
        std::ptr::eq(self.template, &raw const IN_NODE)
            && self.args.iter().all(|(n, a)| match (n, a) {
                (&"node", Arg::Plain(_)) => true,
                (&"text", Arg::Text(t)) => !t.names_node(),
                _ => false,
            })
    }

    /// The text in a language.
    #[must_use]
    pub fn render(&self, lang: Lang) -> String {
        let values: Vec<(&str, String)> = self.args.iter().map(|(n, a)| (*n, a.render(lang))).collect();
        let pairs: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
        fill_named(self.template.get(lang), &pairs)
    }
}

/// A text from a template and named arguments:
/// `text!(COOLER_TOO_TALL, cooler = c.name, height = format!("{h:.0}"))`.
#[macro_export]
macro_rules! text {
    ($template:expr $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::core::i18n::Text::new(&$template)$(.arg(stringify!($name), $value))*
    };
}

/// Declares templates and a slice listing them:
///
/// ```ignore
/// templates! {
///     pub(crate) TEMPLATES;
///     COOLER_TOO_TALL "cooler-too-tall" {
///         en: "{cooler} is {height} mm tall",
///         zh: "{cooler} 高 {height} mm",
///     }
/// }
/// ```
#[macro_export]
macro_rules! templates {
    ($vis:vis $all:ident; $($name:ident $code:literal { en: $en:literal, zh: $zh:literal $(,)? })*) => {
        $(
            #[doc = concat!("English: ", $en)]
            $vis static $name: $crate::core::i18n::Template =
                $crate::core::i18n::Template { code: $code, en: $en, zh: $zh };
        )*
        /// Every template of this module, for the registry's tests.
        #[cfg(test)]
        $vis static $all: &[&$crate::core::i18n::Template] = &[$(&$name),*];
    };
}

crate::templates! {
    pub SHARED;
    IN_NODE "" {
        en: "{node}: {text}",
        zh: "{node}：{text}",
    }
    LIST_SEPARATOR "" {
        en: ", ",
        zh: "、",
    }
}

/// `{node}: {text}`: a finding about one node group, prefixed with its name.
#[must_use]
pub fn in_node(node: &str, text: Text) -> Text {
    crate::text!(IN_NODE, node = node, text = text)
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::templates! {
        T;
        SOCKET "cpu-socket-mismatch" {
            en: "{cpu} needs socket {socket}",
            zh: "{cpu} 需要 {socket} 插槽",
        }
    }

    #[test]
    fn renders_in_each_language_with_nested_texts() {
        let t = crate::text!(SOCKET, cpu = "Ryzen 9 7950X", socket = "AM5");
        assert_eq!(t.render(Lang::En), "Ryzen 9 7950X needs socket AM5");
        assert_eq!(t.render(Lang::ZhCn), "Ryzen 9 7950X 需要 AM5 插槽");
        let n = in_node("Node 1", t);
        assert_eq!(n.render(Lang::En), "Node 1: Ryzen 9 7950X needs socket AM5");
        assert_eq!(n.render(Lang::ZhCn), "Node 1：Ryzen 9 7950X 需要 AM5 插槽");
        assert_eq!(n.code(), "");
        assert_eq!(T.len(), 1);
        let l = crate::text!(SOCKET, cpu = vec!["A", "B"], socket = "AM5");
        assert_eq!(l.render(Lang::En), "A, B needs socket AM5");
        assert_eq!(l.render(Lang::ZhCn), "A、B 需要 AM5 插槽");
    }

    #[test]
    fn renaming_the_node_changes_every_node_argument_and_nothing_else() {
        crate::templates! {
            U;
            EMPTY "node-empty" { en: "{node} has no parts", zh: "{node} 中没有任何部件" }
        }
        assert_eq!(U.len(), 1);
        let t = in_node("Node 1", crate::text!(SOCKET, cpu = "Node 1", socket = "AM5"));
        assert!(t.is_plain_node_prefix(), "the inner text's `cpu` is not a node");
        let moved = t.renamed_node("Node 1", "Node 2");
        assert_eq!(moved.render(Lang::En), "Node 2: Node 1 needs socket AM5");
        let nested = in_node("Node 1", crate::text!(EMPTY, node = "Node 1"));
        assert!(!nested.is_plain_node_prefix(), "the inner text names the node too");
        assert_eq!(nested.renamed_node("Node 1", "GPU rack").render(Lang::ZhCn), "GPU rack：GPU rack 中没有任何部件");
        assert!(!crate::text!(EMPTY, node = "Node 1").is_plain_node_prefix());
    }
}
