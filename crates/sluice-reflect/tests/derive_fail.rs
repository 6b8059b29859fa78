//! Misuse of `#[derive(Reflect)]` is a compile error with a clear message.

#[test]
fn derive_misuse_fails_to_compile_with_clear_messages() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
