//! Generated code written as text: the fixed parts of the output, lexed by the compiler in one call.

use proc_macro2::TokenStream;
use quote::quote;

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
