//! `#[derive(Reflect)]` for sluice.
//!
//! Generates the `Reflect`, `Typed` and `Struct` (or `Enum`) implementations of
//! `sluice-reflect` for structs (named, tuple, unit) and enums (unit-only, flags, or with
//! data-carrying variants written externally tagged). Attributes, all under `#[reflect(...)]`:
//!
//! | where | attribute | effect |
//! |---|---|---|
//! | type | `uuid = "..."` | the stable id (else UUID v5 of the type path) |
//! | type | `version = N` | the data version |
//! | type | `rename = "..."` | the type name shown and registered |
//! | enum | `flags` | the variants are bit flags, combined in `Flags<E>` |
//! | type | `crate = "path"` | where `sluice_reflect` is (default: found from Cargo.toml) |
//! | field / variant | `rename = "..."` | the name in the data |
//! | field / variant | `alias = "..."` | another accepted name (repeatable) |
//! | field | `skip` | not reflected; built with `Default` |
//! | field | `default` / `default = "path"` | absent in the input: `Default` or `path()` |
//!
//! Misuse is a compile error that names the attribute and says what is accepted.
#![warn(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitStr, parse_macro_input};

/// Derives `Reflect` (see the crate docs for the attributes).
#[proc_macro_derive(Reflect, attributes(reflect))]
pub fn derive_reflect(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

const TYPE_ATTRIBUTES: &str = "uuid, version, rename, flags, crate";
const FIELD_ATTRIBUTES: &str = "rename, alias, skip, default";
const VARIANT_ATTRIBUTES: &str = "rename, alias";

#[derive(Default)]
struct TypeAttrs {
    uuid: Option<u128>,
    version: Option<u32>,
    rename: Option<String>,
    flags: bool,
    krate: Option<syn::Path>,
}

#[derive(Default)]
struct FieldAttrs {
    rename: Option<String>,
    aliases: Vec<String>,
    skip: bool,
    default: Option<Option<syn::Path>>,
}

fn string_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    meta.value()?.parse::<LitStr>()
}

fn parse_uuid(text: &LitStr) -> syn::Result<u128> {
    let hex: String = text.value().chars().filter(|c| *c != '-').collect();
    if hex.len() != 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(syn::Error::new(
            text.span(),
            "invalid uuid: expected 32 hex digits such as \"6a1f0c5e-2b9d-4d8e-9c1a-3e5f7a9b0d2c\"",
        ));
    }
    u128::from_str_radix(&hex, 16).map_err(|_| syn::Error::new(text.span(), "invalid uuid"))
}

fn type_attrs(attrs: &[syn::Attribute]) -> syn::Result<TypeAttrs> {
    let mut out = TypeAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("reflect")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("uuid") {
                out.uuid = Some(parse_uuid(&string_value(&meta)?)?);
            } else if meta.path.is_ident("version") {
                let lit: syn::LitInt = meta.value()?.parse().map_err(|e| {
                    syn::Error::new(
                        e.span(),
                        "`version` takes an integer: #[reflect(version = 2)]",
                    )
                })?;
                out.version = Some(lit.base10_parse()?);
            } else if meta.path.is_ident("rename") {
                out.rename = Some(string_value(&meta)?.value());
            } else if meta.path.is_ident("flags") {
                out.flags = true;
            } else if meta.path.is_ident("crate") {
                out.krate = Some(string_value(&meta)?.parse()?);
            } else {
                return Err(meta.error(format!(
                    "unknown reflect attribute on a type; expected one of: {TYPE_ATTRIBUTES}"
                )));
            }
            Ok(())
        })?;
    }
    Ok(out)
}

fn field_attrs(attrs: &[syn::Attribute], allowed: &str) -> syn::Result<FieldAttrs> {
    let mut out = FieldAttrs::default();
    let variant = allowed == VARIANT_ATTRIBUTES;
    for attr in attrs.iter().filter(|a| a.path().is_ident("reflect")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                out.rename = Some(string_value(&meta)?.value());
            } else if meta.path.is_ident("alias") {
                out.aliases.push(string_value(&meta)?.value());
            } else if meta.path.is_ident("skip") && !variant {
                out.skip = true;
            } else if meta.path.is_ident("default") && !variant {
                if meta.input.peek(syn::Token![=]) {
                    let path: syn::Path = string_value(&meta)?.parse()?;
                    out.default = Some(Some(path));
                } else {
                    out.default = Some(None);
                }
            } else {
                let place = if variant { "a variant" } else { "a field" };
                return Err(meta.error(format!(
                    "unknown reflect attribute on {place}; expected one of: {allowed}"
                )));
            }
            Ok(())
        })?;
    }
    if out.skip && (out.rename.is_some() || !out.aliases.is_empty()) {
        let span = attrs.first().map_or_else(Span::call_site, Spanned::span);
        return Err(syn::Error::new(
            span,
            "a skipped field is not in the data: `rename` and `alias` do not apply",
        ));
    }
    Ok(out)
}

/// Where `sluice_reflect` is for the crate being compiled: as a dependency of its own, or
/// through the `sluice` facade.
fn crate_path(attrs: &TypeAttrs) -> TokenStream2 {
    if let Some(path) = &attrs.krate {
        return quote!(#path);
    }
    let manifest = std::env::var("CARGO_MANIFEST_DIR")
        .ok()
        .and_then(|dir| std::fs::read_to_string(std::path::Path::new(&dir).join("Cargo.toml")).ok())
        .unwrap_or_default();
    let names_reflect = manifest.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("sluice-reflect")
            || line.starts_with("sluice_reflect")
            || line.contains("dependencies.sluice-reflect")
            || line.starts_with("name = \"sluice-reflect\"")
    });
    let names_facade = manifest.lines().any(|line| {
        let line = line.trim_start();
        (line.starts_with("sluice ")
            || line.starts_with("sluice=")
            || line.starts_with("name = \"sluice\""))
            || line.contains("dependencies.sluice]")
    });
    if !names_reflect && names_facade {
        quote!(::sluice::reflect)
    } else {
        quote!(::sluice_reflect)
    }
}

struct FieldSpec {
    member: syn::Member,
    ty: syn::Type,
    name: String,
    aliases: Vec<String>,
    skip: bool,
    default: Option<Option<syn::Path>>,
}

fn field_specs(fields: &Fields) -> syn::Result<Vec<FieldSpec>> {
    let mut specs = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let attrs = field_attrs(&field.attrs, FIELD_ATTRIBUTES)?;
        let member = match &field.ident {
            Some(ident) => syn::Member::Named(ident.clone()),
            None => syn::Member::Unnamed(syn::Index::from(index)),
        };
        let base = field.ident.as_ref().map_or_else(
            || index.to_string(),
            |i| i.to_string().trim_start_matches("r#").to_owned(),
        );
        let name = attrs.rename.clone().unwrap_or(base);
        if !attrs.skip {
            for candidate in std::iter::once(&name).chain(&attrs.aliases) {
                if seen.contains(candidate) {
                    return Err(syn::Error::new(
                        field.span(),
                        format!("duplicate field name `{candidate}` (after rename and alias)"),
                    ));
                }
                seen.push(candidate.clone());
            }
        }
        specs.push(FieldSpec {
            member,
            ty: field.ty.clone(),
            name,
            aliases: attrs.aliases,
            skip: attrs.skip,
            default: attrs.default,
        });
    }
    Ok(specs)
}

fn default_expr(spec: &FieldSpec, krate: &TokenStream2) -> TokenStream2 {
    let ty = &spec.ty;
    match &spec.default {
        Some(Some(path)) => quote!(#path()),
        Some(None) => quote!(<#ty as ::core::default::Default>::default()),
        None if spec.skip => quote!(<#ty as ::core::default::Default>::default()),
        None => quote!(<#ty as #krate::Typed>::reflect_default()),
    }
}

fn field_infos(specs: &[FieldSpec], krate: &TokenStream2) -> TokenStream2 {
    let infos = specs.iter().filter(|s| !s.skip).map(|spec| {
        let name = &spec.name;
        let aliases = &spec.aliases;
        let ty = &spec.ty;
        let default = if spec.default.is_some() {
            quote!(#krate::FieldDefault::Default)
        } else {
            quote!(#krate::FieldDefault::Required)
        };
        quote! {
            #krate::FieldInfo {
                name: #name,
                aliases: &[#(#aliases),*],
                ty: <#ty as #krate::Typed>::info,
                default: #default,
            }
        }
    });
    quote!(::std::boxed::Box::leak(
        ::std::vec![#(#infos),*].into_boxed_slice()
    ))
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let attrs = type_attrs(&input.attrs)?;
    let krate = crate_path(&attrs);
    let ident = &input.ident;

    let mut generics = input.generics.clone();
    for param in generics.type_params_mut() {
        param.bounds.push(syn::parse_quote!(#krate::Typed));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();

    let shown = attrs.rename.clone().unwrap_or_else(|| ident.to_string());
    let type_params: Vec<&syn::Ident> = input.generics.type_params().map(|p| &p.ident).collect();
    let name_expr = if type_params.is_empty() {
        quote!(#shown)
    } else {
        quote! {
            #krate::info::leak_str({
                let params: ::std::vec::Vec<&str> = ::std::vec![#(<#type_params as #krate::Typed>::info().name()),*];
                ::std::format!("{}<{}>", #shown, params.join(", "))
            })
        }
    };
    let path_expr = if type_params.is_empty() {
        quote!(::core::concat!(
            ::core::module_path!(),
            "::",
            ::core::stringify!(#ident)
        ))
    } else {
        quote!(::core::any::type_name::<#ident #ty_generics>())
    };
    let uuid = attrs
        .uuid
        .map(|value| quote!(.with_uuid(#krate::__private::Uuid::from_u128(#value))));
    let version = attrs.version.map(|v| quote!(.with_version(#v)));

    let (kind, body, extra) = match &input.data {
        Data::Struct(data) => {
            if attrs.flags {
                return Err(syn::Error::new(
                    ident.span(),
                    "`flags` applies to enums only",
                ));
            }
            expand_struct(
                ident,
                &data.fields,
                &krate,
                &impl_generics,
                &ty_generics,
                where_clause,
            )?
        }
        Data::Enum(data) => expand_enum(
            input,
            data,
            &attrs,
            &krate,
            &impl_generics,
            &ty_generics,
            where_clause,
        )?,
        Data::Union(_) => {
            return Err(syn::Error::new(
                ident.span(),
                "Reflect cannot be derived for unions: use a struct or an enum",
            ));
        }
    };
    let view_variant = match &input.data {
        Data::Struct(_) => quote!(Struct),
        _ => quote!(Enum),
    };

    let cell = if type_params.is_empty() {
        quote! {
            static INFO: ::std::sync::OnceLock<#krate::TypeInfo> = ::std::sync::OnceLock::new();
            INFO.get_or_init(build)
        }
    } else {
        quote! {
            static CELL: #krate::GenericInfoCell = #krate::GenericInfoCell::new();
            CELL.get_or_init::<Self>(build)
        }
    };

    Ok(quote! {
        const _: () = {
            impl #impl_generics #krate::Reflect for #ident #ty_generics #where_clause {
                fn type_info(&self) -> &'static #krate::TypeInfo {
                    <Self as #krate::Typed>::info()
                }
                fn as_any(&self) -> &dyn ::core::any::Any {
                    self
                }
                fn as_any_mut(&mut self) -> &mut dyn ::core::any::Any {
                    self
                }
                fn into_any(self: ::std::boxed::Box<Self>) -> ::std::boxed::Box<dyn ::core::any::Any> {
                    self
                }
                fn reflect_ref(&self) -> #krate::ReflectRef<'_> {
                    #krate::ReflectRef::#view_variant(self)
                }
                fn reflect_mut(&mut self) -> #krate::ReflectMut<'_> {
                    #krate::ReflectMut::#view_variant(self)
                }
            }

            impl #impl_generics #krate::Typed for #ident #ty_generics #where_clause {
                fn info() -> &'static #krate::TypeInfo {
                    fn build #impl_generics () -> #krate::TypeInfo #where_clause {
                        #krate::TypeInfo::new::<#ident #ty_generics>(#name_expr, #path_expr, #kind)
                            #uuid #version
                    }
                    let build = build::<#(#type_params),*>;
                    #cell
                }
                #body
            }

            #extra
        };
    })
}

fn expand_struct(
    ident: &syn::Ident,
    fields: &Fields,
    krate: &TokenStream2,
    impl_generics: &syn::ImplGenerics<'_>,
    ty_generics: &syn::TypeGenerics<'_>,
    where_clause: Option<&syn::WhereClause>,
) -> syn::Result<(TokenStream2, TokenStream2, TokenStream2)> {
    let specs = field_specs(fields)?;
    let style = match fields {
        Fields::Named(_) => quote!(#krate::StructStyle::Named),
        Fields::Unnamed(_) => quote!(#krate::StructStyle::Tuple),
        Fields::Unit => quote!(#krate::StructStyle::Unit),
    };
    let infos = field_infos(&specs, krate);
    let kind =
        quote!(#krate::TypeKind::Struct(#krate::StructInfo { style: #style, fields: #infos }));

    let construct_fields = specs.iter().map(|spec| {
        let member = &spec.member;
        let value = default_expr(spec, krate);
        quote!(#member: #value)
    });
    let reflected: Vec<&FieldSpec> = specs.iter().filter(|s| !s.skip).collect();
    let count = reflected.len();
    let indices: Vec<usize> = (0..count).collect();
    let members: Vec<&syn::Member> = reflected.iter().map(|s| &s.member).collect();
    let name_arms = reflected.iter().enumerate().map(|(index, spec)| {
        let names = std::iter::once(&spec.name).chain(&spec.aliases);
        quote!(#(#names)|* => ::core::option::Option::Some(#index))
    });
    let default_arms = reflected
        .iter()
        .enumerate()
        .filter(|(_, s)| s.default.is_some())
        .map(|(index, spec)| {
            let member = &spec.member;
            let value = default_expr(spec, krate);
            quote!(#index => { self.#member = #value; true })
        });
    let newtype = matches!(fields, Fields::Unnamed(_)) && count == 1 && specs.len() == 1;

    let body = quote! {
        fn reflect_default() -> Self {
            #ident { #(#construct_fields),* }
        }
    };
    let extra = quote! {
        impl #impl_generics #krate::Struct for #ident #ty_generics #where_clause {
            fn struct_info(&self) -> &'static #krate::TypeInfo {
                <Self as #krate::Typed>::info()
            }
            fn field_count(&self) -> usize {
                #count
            }
            fn field(&self, index: usize) -> ::core::option::Option<&dyn #krate::Reflect> {
                match index {
                    #(#indices => ::core::option::Option::Some(&self.#members),)*
                    _ => ::core::option::Option::None,
                }
            }
            fn field_ref(&self, index: usize) -> ::core::option::Option<#krate::ReflectRef<'_>> {
                match index {
                    #(#indices => ::core::option::Option::Some(#krate::Reflect::reflect_ref(&self.#members)),)*
                    _ => ::core::option::Option::None,
                }
            }
            fn field_mut(&mut self, index: usize) -> ::core::option::Option<&mut dyn #krate::Reflect> {
                match index {
                    #(#indices => ::core::option::Option::Some(&mut self.#members),)*
                    _ => ::core::option::Option::None,
                }
            }
            fn field_index(&self, name: &str) -> ::core::option::Option<usize> {
                match name {
                    #(#name_arms,)*
                    _ => ::core::option::Option::None,
                }
            }
            #[allow(unreachable_code, unused_variables)]
            fn set_field_default(&mut self, index: usize) -> bool {
                match index {
                    #(#default_arms)*
                    _ => false,
                }
            }
            fn is_newtype(&self) -> bool {
                #newtype
            }
        }
    };
    Ok((kind, body, extra))
}

#[allow(clippy::too_many_lines)]
fn expand_enum(
    input: &DeriveInput,
    data: &syn::DataEnum,
    attrs: &TypeAttrs,
    krate: &TokenStream2,
    impl_generics: &syn::ImplGenerics<'_>,
    ty_generics: &syn::TypeGenerics<'_>,
    where_clause: Option<&syn::WhereClause>,
) -> syn::Result<(TokenStream2, TokenStream2, TokenStream2)> {
    let ident = &input.ident;
    if data.variants.is_empty() {
        return Err(syn::Error::new(
            ident.span(),
            "Reflect cannot be derived for an enum without variants: it has no value to read or write",
        ));
    }
    let unit_only = data
        .variants
        .iter()
        .all(|v| matches!(v.fields, Fields::Unit));
    if attrs.flags && !unit_only {
        let bad = data
            .variants
            .iter()
            .find(|v| !matches!(v.fields, Fields::Unit));
        return Err(syn::Error::new(
            bad.map_or(ident.span(), Spanned::span),
            "a `flags` enum names bits: every variant must be a unit variant (`Read = 1`)",
        ));
    }
    if attrs.flags && !input.generics.params.is_empty() {
        return Err(syn::Error::new(
            ident.span(),
            "a `flags` enum cannot be generic",
        ));
    }

    let mut variant_infos = Vec::new();
    let mut index_arms = Vec::new();
    let mut set_arms = Vec::new();
    let mut field_arms = Vec::new();
    let mut field_mut_arms = Vec::new();
    let mut seen_names: Vec<String> = Vec::new();
    let mut first_value = None;

    for (index, variant) in data.variants.iter().enumerate() {
        let vattrs = field_attrs(&variant.attrs, VARIANT_ATTRIBUTES)?;
        let vident = &variant.ident;
        let name = vattrs.rename.clone().unwrap_or_else(|| vident.to_string());
        for candidate in std::iter::once(&name).chain(&vattrs.aliases) {
            if seen_names.contains(candidate) {
                return Err(syn::Error::new(
                    variant.span(),
                    format!("duplicate variant name `{candidate}` (after rename and alias)"),
                ));
            }
            seen_names.push(candidate.clone());
        }
        let aliases = &vattrs.aliases;
        let specs = field_specs(&variant.fields)?;
        let reflected: Vec<&FieldSpec> = specs.iter().filter(|s| !s.skip).collect();
        let style = match &variant.fields {
            Fields::Unit => quote!(#krate::VariantStyle::Unit),
            Fields::Unnamed(_) if specs.len() == 1 && reflected.len() == 1 => {
                quote!(#krate::VariantStyle::Newtype)
            }
            Fields::Unnamed(_) => quote!(#krate::VariantStyle::Tuple),
            Fields::Named(_) => quote!(#krate::VariantStyle::Struct),
        };
        let discriminant = if unit_only {
            quote!(#ident::#vident as i64)
        } else {
            let value = index as i64;
            quote!(#value)
        };
        let infos = field_infos(&specs, krate);
        variant_infos.push(quote! {
            #krate::VariantInfo {
                name: #name,
                aliases: &[#(#aliases),*],
                discriminant: #discriminant,
                style: #style,
                fields: #infos,
            }
        });

        let bindings: Vec<syn::Ident> = (0..specs.len())
            .map(|i| format_ident!("field_{}", i))
            .collect();
        let pattern = match &variant.fields {
            Fields::Unit => quote!(#ident::#vident),
            Fields::Unnamed(_) => quote!(#ident::#vident(#(#bindings),*)),
            Fields::Named(_) => {
                let members = specs.iter().map(|s| &s.member);
                quote!(#ident::#vident { #(#members: #bindings),* })
            }
        };
        let wildcard = match &variant.fields {
            Fields::Unit => quote!(#ident::#vident),
            Fields::Unnamed(_) => quote!(#ident::#vident(..)),
            Fields::Named(_) => quote!(#ident::#vident { .. }),
        };
        index_arms.push(quote!(#wildcard => #index));
        let construct = match &variant.fields {
            Fields::Unit => quote!(#ident::#vident),
            Fields::Unnamed(_) => {
                let values = specs.iter().map(|s| default_expr(s, krate));
                quote!(#ident::#vident(#(#values),*))
            }
            Fields::Named(_) => {
                let values = specs.iter().map(|s| {
                    let member = &s.member;
                    let value = default_expr(s, krate);
                    quote!(#member: #value)
                });
                quote!(#ident::#vident { #(#values),* })
            }
        };
        if first_value.is_none() {
            first_value = Some(construct.clone());
        }
        set_arms.push(quote!(#index => #construct));
        let reflected_bindings: Vec<&syn::Ident> = specs
            .iter()
            .zip(&bindings)
            .filter(|(s, _)| !s.skip)
            .map(|(_, b)| b)
            .collect();
        let positions: Vec<usize> = (0..reflected_bindings.len()).collect();
        if !reflected_bindings.is_empty() {
            field_arms.push(quote! {
                #[allow(unused_variables)]
                #pattern => match index {
                    #(#positions => ::core::option::Option::Some(#reflected_bindings as &dyn #krate::Reflect),)*
                    _ => ::core::option::Option::None,
                }
            });
            field_mut_arms.push(quote! {
                #[allow(unused_variables)]
                #pattern => match index {
                    #(#positions => ::core::option::Option::Some(#reflected_bindings as &mut dyn #krate::Reflect),)*
                    _ => ::core::option::Option::None,
                }
            });
        }
    }

    let flags = attrs.flags;
    let kind = quote! {
        #krate::TypeKind::Enum(#krate::EnumInfo {
            variants: ::std::boxed::Box::leak(::std::vec![#(#variant_infos),*].into_boxed_slice()),
            flags: #flags,
            flags_of: ::core::option::Option::None,
        })
    };
    let first_value = first_value.unwrap_or_default();
    let body = quote! {
        fn reflect_default() -> Self {
            #first_value
        }
    };
    let extra = quote! {
        impl #impl_generics #krate::Enum for #ident #ty_generics #where_clause {
            fn enum_info(&self) -> &'static #krate::TypeInfo {
                <Self as #krate::Typed>::info()
            }
            fn variant_index(&self) -> usize {
                match self {
                    #(#index_arms,)*
                }
            }
            fn set_variant_index(&mut self, index: usize) -> bool {
                if #krate::Enum::variant_index(self) == index {
                    return true;
                }
                *self = match index {
                    #(#set_arms,)*
                    _ => return false,
                };
                true
            }
            #[allow(unreachable_patterns)]
            fn field(&self, index: usize) -> ::core::option::Option<&dyn #krate::Reflect> {
                match self {
                    #(#field_arms,)*
                    _ => ::core::option::Option::None,
                }
            }
            #[allow(unreachable_patterns)]
            fn field_mut(&mut self, index: usize) -> ::core::option::Option<&mut dyn #krate::Reflect> {
                match self {
                    #(#field_mut_arms,)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    };
    Ok((kind, body, extra))
}
