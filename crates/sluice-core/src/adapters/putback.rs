use crate::{Entry, EnumToken, Error, Ext, Number, Reader, Result, Span, Token};

/// A reader that can have tokens pushed back in front of its input.
///
/// Used for lookahead by value: a handler reads tokens until it finds what it needs (a
/// `"$type"` key, say), then puts back what it read so the next step sees the stream whole.
///
/// ```
/// use sluice_core::{Entry, PutbackReader, Reader, Token, Value, ValueReader};
/// let value = Value::from(7u64);
/// let mut reader = PutbackReader::new(ValueReader::new(&value));
/// reader.putback_all([Token::ArrayRoot(None), Token::Bool(true)]);
/// assert_eq!(reader.peek()?, Entry::ArrayRoot);
/// reader.read_array_root()?;
/// assert!(reader.read_bool()?);
/// assert_eq!(reader.read_u64()?, 7); // back to the wrapped reader
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug)]
pub struct PutbackReader<R> {
    inner: R,
    /// Pushed-back tokens; the last one is read first.
    stack: Vec<(Token, Span)>,
    /// The token handed out last, kept so borrowed strings can point into it.
    current: Option<Token>,
    span: Span,
    from_stack: bool,
}

fn mismatched() -> Error {
    Error::custom("putback token changed between check and read")
}

impl<R: Reader> PutbackReader<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> PutbackReader<R> {
        PutbackReader {
            inner,
            stack: Vec::new(),
            current: None,
            span: Span::default(),
            from_stack: false,
        }
    }

    /// Pushes one token back: it is the next one read (last in, first out).
    pub fn putback(&mut self, token: Token) {
        let span = self.span();
        self.stack.push((token, span));
    }

    /// Pushes back a token with the span it had when first read.
    pub fn putback_with_span(&mut self, token: Token, span: Span) {
        self.stack.push((token, span));
    }

    /// Pushes back several tokens so that they are read in the order given.
    pub fn putback_all(&mut self, tokens: impl IntoIterator<Item = Token>) {
        let span = self.span();
        let tokens: Vec<Token> = tokens.into_iter().collect();
        self.stack
            .extend(tokens.into_iter().rev().map(|token| (token, span)));
    }

    /// How many pushed-back tokens are waiting.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.stack.len()
    }

    /// The wrapped reader.
    pub fn inner_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Unwraps the reader; pushed-back tokens are dropped.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Takes the top pushed-back token if `accept` says it fits; `false` when the stack is
    /// empty (read from the inner reader instead).
    fn take(&mut self, expected: &str, accept: impl Fn(&Token) -> bool) -> Result<bool> {
        match self.stack.last() {
            None => {
                self.from_stack = false;
                Ok(false)
            }
            Some((token, span)) if !accept(token) => {
                // The refused token stays; `span` gives it until the next read, as the
                // trait asks of a failed read.
                let (entry, span) = (token.entry(), *span);
                self.span = span;
                self.from_stack = true;
                Err(Error::unexpected(expected, entry).with_span(span))
            }
            Some(_) => {
                if let Some((token, span)) = self.stack.pop() {
                    self.current = Some(token);
                    self.span = span;
                }
                self.from_stack = true;
                Ok(true)
            }
        }
    }

    fn take_plain(&mut self, expected: &str, wanted: &Token) -> Result<bool> {
        self.take(expected, |token| token == wanted)
    }
}

impl<R: Reader> Reader for PutbackReader<R> {
    fn peek(&mut self) -> Result<Entry> {
        match self.stack.last() {
            Some((token, _)) => Ok(token.entry()),
            None => self.inner.peek(),
        }
    }

    fn span(&self) -> Span {
        if self.from_stack {
            self.span
        } else {
            self.inner.span()
        }
    }

    fn read_null(&mut self) -> Result<()> {
        if self.take_plain("Null", &Token::Null)? {
            return Ok(());
        }
        self.inner.read_null()
    }

    fn read_bool(&mut self) -> Result<bool> {
        if self.take("Bool", |t| matches!(t, Token::Bool(_)))? {
            return match self.current {
                Some(Token::Bool(v)) => Ok(v),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_bool()
    }

    fn read_str(&mut self) -> Result<&str> {
        if self.take("String", |t| matches!(t, Token::String(_)))? {
            return match &self.current {
                Some(Token::String(v)) => Ok(v),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_str()
    }

    fn read_name(&mut self) -> Result<&str> {
        if self.take("Name", |t| matches!(t, Token::Name(_)))? {
            return match &self.current {
                Some(Token::Name(v)) => Ok(v),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_name()
    }

    fn read_number(&mut self) -> Result<Number<'_>> {
        if self.take("Number", |t| matches!(t, Token::Number(_)))? {
            return match &self.current {
                Some(Token::Number(v)) => Ok(v.as_number()),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_number()
    }

    fn read_blob(&mut self) -> Result<&[u8]> {
        if self.take("Blob", |t| matches!(t, Token::Blob(_)))? {
            return match &self.current {
                Some(Token::Blob(v)) => Ok(v),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_blob()
    }

    fn read_ext(&mut self) -> Result<Ext<'_>> {
        if self.take("Ext", |t| matches!(t, Token::Ext(..)))? {
            return match &self.current {
                Some(Token::Ext(kind, data)) => Ok(Ext { kind: *kind, data }),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_ext()
    }

    fn read_map_root(&mut self) -> Result<Option<usize>> {
        if self.take("MapRoot", |t| matches!(t, Token::MapRoot(_)))? {
            return match self.current {
                Some(Token::MapRoot(len)) => Ok(len),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_map_root()
    }

    fn read_map_end(&mut self) -> Result<()> {
        if self.take_plain("MapEnd", &Token::MapEnd)? {
            return Ok(());
        }
        self.inner.read_map_end()
    }

    fn read_array_root(&mut self) -> Result<Option<usize>> {
        if self.take("ArrayRoot", |t| matches!(t, Token::ArrayRoot(_)))? {
            return match self.current {
                Some(Token::ArrayRoot(len)) => Ok(len),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_array_root()
    }

    fn read_array_end(&mut self) -> Result<()> {
        if self.take_plain("ArrayEnd", &Token::ArrayEnd)? {
            return Ok(());
        }
        self.inner.read_array_end()
    }

    fn read_set_root(&mut self) -> Result<Option<usize>> {
        if self.take("SetRoot", |t| matches!(t, Token::SetRoot(_)))? {
            return match self.current {
                Some(Token::SetRoot(len)) => Ok(len),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_set_root()
    }

    fn read_set_end(&mut self) -> Result<()> {
        if self.take_plain("SetEnd", &Token::SetEnd)? {
            return Ok(());
        }
        self.inner.read_set_end()
    }

    fn read_struct_root(&mut self) -> Result<(&str, Option<usize>)> {
        if self.take("StructRoot", |t| matches!(t, Token::StructRoot(..)))? {
            return match &self.current {
                Some(Token::StructRoot(name, len)) => Ok((name, *len)),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_struct_root()
    }

    fn read_struct_end(&mut self) -> Result<()> {
        if self.take_plain("StructEnd", &Token::StructEnd)? {
            return Ok(());
        }
        self.inner.read_struct_end()
    }

    fn read_option_root(&mut self) -> Result<()> {
        if self.take_plain("OptionRoot", &Token::OptionRoot)? {
            return Ok(());
        }
        self.inner.read_option_root()
    }

    fn read_option_end(&mut self) -> Result<()> {
        if self.take_plain("OptionEnd", &Token::OptionEnd)? {
            return Ok(());
        }
        self.inner.read_option_end()
    }

    fn read_enum(&mut self) -> Result<EnumToken<'_>> {
        if self.take("Enum", |t| matches!(t, Token::Enum(_)))? {
            return match &self.current {
                Some(Token::Enum(owned)) => Ok(owned.as_enum_token()),
                _ => Err(mismatched()),
            };
        }
        self.inner.read_enum()
    }

    fn skip(&mut self) -> Result<()> {
        if self.stack.is_empty() {
            self.inner.skip()
        } else {
            crate::pipe::skip_value(self)
        }
    }
}
