//! Generated code written as text: the fixed parts of the output, lexed by the compiler in one call.

use proc_macro2::{Delimiter, Group, TokenStream};
use quote::{quote, TokenStreamExt};

/// Tokens whose spans do not matter (names the derive makes up, runtime items, literals), lexed by the compiler
/// from one string. Inside a derive (a debug build under `cargo check`) every token built apart costs several
/// calls into the compiler; one string costs one call, so large fixed parts of the output are written as text.
/// Anything an error may point at (the user's types, spanned parts) is still built as tokens.
pub fn lexed(src: &str) -> TokenStream {
    if proc_macro::is_available() {
        // `proc_macro2`'s own `FromStr` lexes the text a second time to check it; the compiler's lexer suffices.
        src.parse::<proc_macro::TokenStream>().expect("generated code lexes").into()
    } else {
        src.parse().expect("generated code lexes")
    }
}

/// A visibility as source text, for [`lexed`].
pub fn vis_text(vis: &syn::Visibility) -> String {
    match vis {
        syn::Visibility::Public(_) => "pub".to_owned(),
        syn::Visibility::Inherited => String::new(),
        syn::Visibility::Restricted(_) => quote!(#vis).to_string(),
    }
}

/// Generated code as it is written: text, lexed in as few calls as the spanned parts allow. Spanned tokens
/// ([`Code::tokens`]) are spliced between runs of text; a group ([`Code::open`] … [`Code::close`]) becomes a real
/// token group only when something was spliced into it, and is otherwise plain text of its parent.
pub struct Code {
    frames: Vec<Frame>,
    /// Whether anything written may name `__odm::…` (the runtime's private module, imported only when used): set
    /// by every splice of [`Code::tokens`] and by [`Code::uses_odm`] for text.
    mentions_odm: bool,
}

struct Frame {
    delim: Delimiter,
    text: String,
    done: TokenStream,
    spliced: bool,
}

impl Frame {
    fn new(delim: Delimiter) -> Self {
        Frame { delim, text: String::new(), done: TokenStream::new(), spliced: false }
    }

    /// Moves the pending text into the tokens.
    fn flush(&mut self) {
        if !self.text.trim().is_empty() {
            // Whole streams (`Extend<TokenStream>`): extending by a stream's trees would take them apart one by one.
            self.done.extend(std::iter::once(lexed(&self.text)));
        }
        self.text.clear();
    }
}

impl Code {
    pub fn new() -> Self {
        Code { frames: vec![Frame::new(Delimiter::None)], mentions_odm: false }
    }

    fn top(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("the outermost frame stays")
    }

    /// Appends source text (whole tokens; a space is added after it).
    pub fn text(&mut self, src: &str) {
        let top = self.top();
        top.text.push_str(src);
        top.text.push(' ');
    }

    /// Appends source text as it is (whole tokens). Callers format into a `String` first (`format!`): the standard
    /// library's formatting then writes into its own, optimised `String`, where writing piece by piece into this one
    /// would run each piece through this crate's debug build.
    pub fn push(&mut self, src: &str) {
        self.top().text.push_str(src);
    }

    /// Splices tokens whose spans matter (counted as naming `__odm::…`: they are not read back).
    pub fn tokens(&mut self, tokens: TokenStream) {
        self.mentions_odm |= !tokens.is_empty();
        self.splice(tokens);
    }

    /// Splices tokens that name `__odm::…` only when `names_odm` says so.
    pub fn tokens_naming(&mut self, tokens: TokenStream, names_odm: bool) {
        self.mentions_odm |= names_odm;
        self.splice(tokens);
    }

    /// Splices a spanned type expression that names only the user's type and `__Odm…` aliases.
    pub fn type_tokens(&mut self, tokens: TokenStream) {
        self.splice(tokens);
    }

    /// True when something written may name `__odm::…`.
    pub fn mentions_odm(&self) -> bool {
        self.mentions_odm
    }

    /// Records that text written names `__odm::…` (text is not scanned: that would cost more than the import).
    pub fn uses_odm(&mut self) {
        self.mentions_odm = true;
    }

    fn splice(&mut self, tokens: TokenStream) {
        if tokens.is_empty() {
            return;
        }
        let top = self.top();
        top.flush();
        top.done.extend(std::iter::once(tokens));
        top.spliced = true;
    }

    /// Opens a `{`, `(` or `[` group.
    pub fn open(&mut self, delim: Delimiter) {
        self.frames.push(Frame::new(delim));
    }

    /// Closes the group [`Code::open`] opened last.
    pub fn close(&mut self) {
        let mut frame = self.frames.pop().expect("a group is open");
        if frame.spliced {
            frame.flush();
            let group = Group::new(frame.delim, frame.done);
            let mut one = TokenStream::new();
            one.append(group);
            self.splice(one);
            return;
        }
        let (open, close) = match frame.delim {
            Delimiter::Brace => ("{", "}"),
            Delimiter::Parenthesis => ("(", ")"),
            Delimiter::Bracket => ("[", "]"),
            Delimiter::None => ("", ""),
        };
        let top = self.top();
        top.text.push_str(open);
        top.text.push_str(&frame.text);
        top.text.push_str(close);
        top.text.push(' ');
    }

    /// The tokens written.
    pub fn finish(mut self) -> TokenStream {
        assert_eq!(self.frames.len(), 1, "every group is closed");
        let mut top = self.frames.pop().expect("the outermost frame stays");
        top.flush();
        top.done
    }
}
