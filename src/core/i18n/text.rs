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
    /// The same in every language: a part name, a socket, a figure already formatted. Shared,
    /// so that the copies of a finding about identical node groups ([`Text::renamed_node`])
    /// count a reference instead of copying every name.
    Plain(Arc<str>),
    /// A phrase that translates (shared: the copies of a finding about identical node groups
    /// share the sentence their node prefix wraps).
    Text(Arc<Text>),
    /// Items joined by the language's list separator (`, ` / `、`).
    List(Vec<Arg>),
}

impl Arg {
    fn render(&self, lang: Lang) -> String {
        match self {
            Self::Plain(s) => s.to_string(),
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
        Arg::Plain(self.into())
    }
}

impl IntoArg for &String {
    fn into_arg(self) -> Arg {
        Arg::Plain(self.as_str().into())
    }
}

impl IntoArg for &str {
    fn into_arg(self) -> Arg {
        Arg::Plain(self.into())
    }
}

impl IntoArg for &crate::core::catalog::PartId {
    fn into_arg(self) -> Arg {
        Arg::Plain(self.to_string().into())
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
                Arg::Plain(s) if name == "node" && &**s == from => Arg::Plain(to.into()),
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

/// A [`Text`] with its rendering in the current language: a sentence a report holds (an
/// assumption, a note) that a front end shows as it is. It is made in English
/// ([`Self::new`]) and [`Self::localize`]d when the report is; it serializes as the rendered
/// string, so a JSON field of sentences stays an array of strings.
///
/// The rendering is written when first read: a report holds hundreds of sentences (a note
/// on every fit cell that does not fit) that a `rigplan report` never prints, and a
/// localized report would otherwise render each twice (issue 19).
#[derive(Clone, Debug)]
pub struct Sentence {
    text: Text,
    lang: Lang,
    /// `text` in `lang`, once read.
    rendered: std::sync::OnceLock<String>,
}

impl Sentence {
    /// The sentence, in English.
    #[must_use]
    pub fn new(text: Text) -> Self {
        Self { text, lang: Lang::En, rendered: std::sync::OnceLock::new() }
    }

    /// The sentence in a language (the language held is left as it is).
    #[must_use]
    pub fn render(&self, lang: Lang) -> String {
        self.text.render(lang)
    }

    /// Holds the sentence in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        if lang != self.lang {
            self.lang = lang;
            self.rendered = std::sync::OnceLock::new();
        }
    }

    /// The rendered string, in English unless [`Self::localize`] chose another language.
    #[must_use]
    pub fn as_str(&self) -> &str {
        self.rendered.get_or_init(|| self.text.render(self.lang))
    }

    /// The template with its arguments.
    #[must_use]
    pub fn text(&self) -> &Text {
        &self.text
    }
}

/// Two sentences are equal when they say the same in the same language (the rendering is a
/// function of the two, written or not).
impl PartialEq for Sentence {
    fn eq(&self, other: &Self) -> bool {
        self.lang == other.lang && self.text == other.text
    }
}

impl Eq for Sentence {}

impl std::hash::Hash for Sentence {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
        self.lang.hash(state);
    }
}

impl From<Text> for Sentence {
    fn from(text: Text) -> Self {
        Self::new(text)
    }
}

/// The rendered string, so that `s.contains(..)`, `s.starts_with(..)` and `as_deref()` read
/// a sentence as the `String` it replaces.
impl std::ops::Deref for Sentence {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Sentence {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for Sentence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Sentence {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Renders every sentence of a list in `lang`.
pub fn localize_all<'a>(sentences: impl IntoIterator<Item = &'a mut Sentence>, lang: Lang) {
    sentences.into_iter().for_each(|s| s.localize(lang));
}

/// Checks a table of templates for the tests: the same placeholders in both languages, and
/// Chinese wherever the English has words besides its placeholders.
#[cfg(test)]
pub(crate) fn assert_table_is_translated(table: &[&Template]) {
    assert!(!table.is_empty());
    for t in table {
        let mut en = super::placeholders(t.en);
        let mut zh = super::placeholders(t.zh);
        en.sort_unstable();
        zh.sort_unstable();
        assert_eq!(en, zh, "`{}` and `{}` take different parameters", t.en, t.zh);
        let words = fill_named(t.en, &[]).chars().filter(char::is_ascii_alphabetic).count()
            > en.iter().map(|p| p.len()).sum::<usize>();
        let chinese = t.zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        assert!(!words || chinese, "`{}` is not translated: `{}`", t.en, t.zh);
        assert_ne!(t.en, t.zh, "`{}` is the same in both languages", t.en);
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
    fn a_sentence_renders_english_until_localized_and_serializes_as_its_string() {
        let mut s = Sentence::new(crate::text!(SOCKET, cpu = "Ryzen 9 7950X", socket = "AM5"));
        assert_eq!(s.as_str(), "Ryzen 9 7950X needs socket AM5");
        assert_eq!(s.to_string(), "Ryzen 9 7950X needs socket AM5");
        assert_eq!(s.render(Lang::ZhCn), "Ryzen 9 7950X 需要 AM5 插槽");
        assert_eq!(s.as_str(), "Ryzen 9 7950X needs socket AM5", "render leaves the held string");
        let english = s.clone();
        s.localize(Lang::ZhCn);
        assert_eq!(s.as_str(), "Ryzen 9 7950X 需要 AM5 插槽");
        assert_eq!(format!("{s}"), "Ryzen 9 7950X 需要 AM5 插槽");
        assert!(s.contains("插槽"), "reads as a str");
        assert_eq!(s.text(), english.text(), "the same text in either language");
        assert_ne!(s, english, "but not the same rendering");
        assert_eq!(
            serde_json::to_string(&vec![english.clone(), s.clone()]).unwrap(),
            r#"["Ryzen 9 7950X needs socket AM5","Ryzen 9 7950X 需要 AM5 插槽"]"#
        );
        s.localize(Lang::En);
        assert_eq!(s, english, "back to English");
        let mut all = vec![english.clone(), english];
        localize_all(&mut all, Lang::ZhCn);
        assert!(all.iter().all(|s| s.as_str() == "Ryzen 9 7950X 需要 AM5 插槽"));
        assert_table_is_translated(T);
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
