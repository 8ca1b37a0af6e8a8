//! The server loop and the answer to each method.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::*;
use rbg_ide::{Analysis, CompletionKind, IdeDiagnostic, OutlineItem, OutlineKind, SymbolKind, TokenClass};

use crate::position::LineIndex;
use crate::transport::{self, Incoming};

/// How the connection ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `exit` after `shutdown` (exit code 0).
    Clean,
    /// `exit` without `shutdown`, or the input ended first (exit code 1).
    Abrupt,
}

/// Serves one client on `input`/`output` until `exit` or the end of the input.
pub fn serve(input: &mut impl BufRead, output: &mut impl Write) -> io::Result<Ending> {
    let mut server = Server::default();
    while let Some(incoming) = transport::read(input)? {
        match incoming {
            Incoming::Invalid { code, message, id } => transport::write_invalid(output, code, &message, id)?,
            Incoming::Message(Message::Request(request)) => {
                if let Some(response) = server.request(request) {
                    transport::write(output, Message::Response(response))?;
                }
            }
            Incoming::Message(Message::Notification(notification)) => {
                if notification.method == note::Exit::METHOD {
                    return Ok(if server.shut_down { Ending::Clean } else { Ending::Abrupt });
                }
                for message in server.notification(notification) {
                    transport::write(output, message)?;
                }
            }
            Incoming::Message(Message::Response(_)) => {} // We send no requests.
        }
    }
    Ok(if server.shut_down { Ending::Clean } else { Ending::Abrupt })
}

/// An open document.
struct Document {
    text: String,
    analysis: Analysis,
}

#[derive(Default)]
pub struct Server {
    initialized: bool,
    shut_down: bool,
    documents: HashMap<Uri, Document>,
}

/// A failed request: its code and message.
type Failure = (ErrorCode, String);

impl Server {
    fn request(&mut self, request: Request) -> Option<Response> {
        let id = request.id.clone();
        let method = request.method.clone();
        if !self.initialized && method != req::Initialize::METHOD {
            return Some(error(id, ErrorCode::ServerNotInitialized, "initialize first".into()));
        }
        // Belt and braces: no answer may take the server down.
        let result = catch_unwind(AssertUnwindSafe(|| self.answer(request)));
        Some(match result {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err((code, message))) => error(id, code, message),
            Err(_) => error(id, ErrorCode::InternalError, format!("internal error while answering {method}")),
        })
    }

    fn answer(&mut self, request: Request) -> Result<serde_json::Value, Failure> {
        let method = request.method.as_str();
        match method {
            req::Initialize::METHOD => {
                self.initialized = true;
                to_json(initialize_result())
            }
            req::Shutdown::METHOD => {
                self.shut_down = true;
                Ok(serde_json::Value::Null)
            }
            req::HoverRequest::METHOD => self.with::<req::HoverRequest>(request, |s, p| s.hover(p)),
            req::GotoDefinition::METHOD => self.with::<req::GotoDefinition>(request, |s, p| s.definition(p)),
            req::References::METHOD => self.with::<req::References>(request, |s, p| s.references(p)),
            req::PrepareRenameRequest::METHOD => {
                self.with::<req::PrepareRenameRequest>(request, |s, p| s.prepare_rename(p))
            }
            req::Rename::METHOD => self.with::<req::Rename>(request, |s, p| s.rename(p)),
            req::Completion::METHOD => self.with::<req::Completion>(request, |s, p| s.completion(p)),
            req::DocumentSymbolRequest::METHOD => {
                self.with::<req::DocumentSymbolRequest>(request, |s, p| s.document_symbols(p))
            }
            req::SemanticTokensFullRequest::METHOD => {
                self.with::<req::SemanticTokensFullRequest>(request, |s, p| s.semantic_tokens(p))
            }
            req::Formatting::METHOD => self.with::<req::Formatting>(request, |s, p| s.formatting(p)),
            req::CodeActionRequest::METHOD => {
                self.with::<req::CodeActionRequest>(request, |s, p| s.code_actions(p))
            }
            _ => Err((ErrorCode::MethodNotFound, format!("unknown method {method:?}"))),
        }
    }

    /// Reads the parameters of request `R`, answers with `handle`.
    fn with<R: req::Request>(
        &mut self,
        request: Request,
        handle: impl FnOnce(&Self, R::Params) -> Result<R::Result, Failure>,
    ) -> Result<serde_json::Value, Failure> {
        let params: R::Params = serde_json::from_value(request.params)
            .map_err(|e| (ErrorCode::InvalidParams, format!("bad parameters for {}: {e}", R::METHOD)))?;
        to_json(handle(self, params)?)
    }

    /// Handles a notification; returns the messages to send (diagnostics).
    fn notification(&mut self, notification: Notification) -> Vec<Message> {
        if !self.initialized {
            return Vec::new(); // Notifications before initialize are dropped (LSP 3.17).
        }
        let result = catch_unwind(AssertUnwindSafe(|| self.notify(notification)));
        result.unwrap_or_default()
    }

    fn notify(&mut self, notification: Notification) -> Vec<Message> {
        match notification.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                let Ok(params) = from_json::<DidOpenTextDocumentParams>(notification.params) else {
                    return Vec::new();
                };
                let document = params.text_document;
                self.set_text(document.uri, document.text)
            }
            note::DidChangeTextDocument::METHOD => {
                let Ok(params) = from_json::<DidChangeTextDocumentParams>(notification.params) else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                let Some(document) = self.documents.get(&uri) else { return Vec::new() };
                let mut text = document.text.clone();
                for change in params.content_changes {
                    text = match change.range {
                        Some(range) => {
                            rbg_ide::apply_edit(&text, LineIndex::new(&text).span(range), &change.text)
                        }
                        None => change.text,
                    };
                }
                self.set_text(uri, text)
            }
            note::DidCloseTextDocument::METHOD => {
                let Ok(params) = from_json::<DidCloseTextDocumentParams>(notification.params) else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                self.documents.remove(&uri);
                vec![publish(uri, Vec::new())]
            }
            _ => Vec::new(), // initialized, didSave, $/cancelRequest, unknown ones.
        }
    }

    /// Analyses a document's new text; returns its diagnostics notification.
    fn set_text(&mut self, uri: Uri, text: String) -> Vec<Message> {
        let analysis = Analysis::new(file_name(&uri), &text);
        let index = LineIndex::new(&text);
        let diagnostics = analysis.diagnostics().iter().map(|d| lsp_diagnostic(&uri, &index, d)).collect();
        self.documents.insert(uri.clone(), Document { text, analysis });
        vec![publish(uri, diagnostics)]
    }

    fn document(&self, uri: &Uri) -> Result<(&Document, LineIndex<'_>), Failure> {
        let document = self
            .documents
            .get(uri)
            .ok_or_else(|| (ErrorCode::InvalidParams, format!("document {} is not open", uri.as_str())))?;
        Ok((document, LineIndex::new(&document.text)))
    }

    fn at(&self, at: &TextDocumentPositionParams) -> Result<(&Document, LineIndex<'_>, u32), Failure> {
        let (document, index) = self.document(&at.text_document.uri)?;
        let offset = index.offset(at.position);
        Ok((document, index, offset))
    }

    fn hover(&self, params: HoverParams) -> Result<Option<Hover>, Failure> {
        let (document, index, offset) = self.at(&params.text_document_position_params)?;
        Ok(document.analysis.hover(offset).map(|hover| Hover {
            contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: hover.text }),
            range: Some(index.range(hover.span)),
        }))
    }

    fn definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>, Failure> {
        let at = &params.text_document_position_params;
        let (document, index, offset) = self.at(at)?;
        let uri = at.text_document.uri.clone();
        Ok(document
            .analysis
            .definition(offset)
            .map(|span| GotoDefinitionResponse::Scalar(Location::new(uri, index.range(span)))))
    }

    fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>, Failure> {
        let at = &params.text_document_position;
        let (document, index, offset) = self.at(at)?;
        let uri = &at.text_document.uri;
        let with_declaration = params.context.include_declaration;
        let locations = document
            .analysis
            .references(offset)
            .iter()
            .filter(|r| with_declaration || !r.definition)
            .map(|r| Location::new(uri.clone(), index.range(r.span)))
            .collect();
        Ok(Some(locations))
    }

    fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>, Failure> {
        let (document, index, offset) = self.at(&params)?;
        Ok(document
            .analysis
            .rename_target(offset)
            .map(|span| PrepareRenameResponse::Range(index.range(span))))
    }

    fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>, Failure> {
        let at = &params.text_document_position;
        let (document, index, offset) = self.at(at)?;
        let edits = document
            .analysis
            .rename(offset, &params.new_name)
            .map_err(|e| (ErrorCode::RequestFailed, e.message))?;
        let edits = edits.into_iter().map(|e| TextEdit::new(index.range(e.span), e.text)).collect();
        Ok(Some(WorkspaceEdit::new(HashMap::from([(at.text_document.uri.clone(), edits)]))))
    }

    fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>, Failure> {
        let (document, _, offset) = self.at(&params.text_document_position)?;
        let items = document
            .analysis
            .completions(offset)
            .into_iter()
            .enumerate()
            .map(|(n, c)| CompletionItem {
                label: c.label,
                kind: Some(completion_kind(c.kind)),
                detail: Some(c.detail),
                insert_text: Some(c.insert),
                insert_text_format: Some(if c.snippet {
                    InsertTextFormat::SNIPPET
                } else {
                    InsertTextFormat::PLAIN_TEXT
                }),
                sort_text: Some(format!("{n:05}")),
                ..CompletionItem::default()
            })
            .collect();
        Ok(Some(CompletionResponse::Array(items)))
    }

    fn document_symbols(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>, Failure> {
        let (document, index) = self.document(&params.text_document.uri)?;
        let symbols = document.analysis.outline().iter().map(|item| document_symbol(&index, item)).collect();
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }

    fn semantic_tokens(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>, Failure> {
        let (document, index) = self.document(&params.text_document.uri)?;
        let mut data = Vec::new();
        let mut last = Position::new(0, 0);
        for highlight in document.analysis.highlights() {
            let Some(token_type) = token_type(highlight.class) else { continue };
            let range = index.range(highlight.span);
            if range.start.line != range.end.line {
                continue; // Multi-line tokens (strings) are left to the grammar.
            }
            let delta_line = range.start.line - last.line;
            let delta_start =
                if delta_line == 0 { range.start.character - last.character } else { range.start.character };
            data.push(SemanticToken {
                delta_line,
                delta_start,
                length: range.end.character - range.start.character,
                token_type,
                token_modifiers_bitset: u32::from(highlight.definition),
            });
            last = range.start;
        }
        Ok(Some(SemanticTokensResult::Tokens(SemanticTokens { result_id: None, data })))
    }

    fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>, Failure> {
        let (document, index) = self.document(&params.text_document.uri)?;
        let formatted = document.analysis.format().map_err(|e| {
            let place = e
                .span
                .map(|s| index.position(s.start))
                .map(|p| format!(" at {}:{}", p.line + 1, p.character + 1));
            (ErrorCode::RequestFailed, format!("cannot format{}: {}", place.unwrap_or_default(), e.message))
        })?;
        if formatted == document.text {
            return Ok(Some(Vec::new()));
        }
        let whole = Range::new(Position::new(0, 0), index.position(document.text.len() as u32));
        Ok(Some(vec![TextEdit::new(whole, formatted)]))
    }

    fn code_actions(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>, Failure> {
        let uri = &params.text_document.uri;
        let (document, index) = self.document(uri)?;
        let wanted = index.span(params.range);
        let mut actions = Vec::new();
        for diagnostic in document.analysis.diagnostics() {
            let touches = diagnostic.span.start <= wanted.end && wanted.start <= diagnostic.span.end;
            if !touches {
                continue;
            }
            for fix in &diagnostic.fixes {
                let edits =
                    fix.edits.iter().map(|e| TextEdit::new(index.range(e.span), e.text.clone())).collect();
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.title.clone(),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![lsp_diagnostic(uri, &index, &diagnostic)]),
                    edit: Some(WorkspaceEdit::new(HashMap::from([(uri.clone(), edits)]))),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                }));
            }
        }
        Ok(Some(actions))
    }
}

/// What the server offers.
fn initialize_result() -> InitializeResult {
    let legend = SemanticTokensLegend {
        token_types: TOKEN_TYPES.to_vec(),
        token_modifiers: vec![SemanticTokenModifier::DECLARATION],
    };
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["#".into(), "{".into(), "[".into(), ">".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend,
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: Default::default(),
            },
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    };
    InitializeResult {
        capabilities,
        server_info: Some(ServerInfo { name: "rbg".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
    }
}

/// The semantic token types, indexed by [`token_type`].
const TOKEN_TYPES: [SemanticTokenType; 11] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::MACRO,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::CLASS,       // players
    SemanticTokenType::ENUM_MEMBER, // pieces
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PROPERTY, // edge labels
    SemanticTokenType::NUMBER,
    SemanticTokenType::STRING,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::COMMENT,
];

fn token_type(class: TokenClass) -> Option<u32> {
    Some(match class {
        TokenClass::Keyword => 0,
        TokenClass::Symbol(SymbolKind::Macro) => 1,
        TokenClass::Symbol(SymbolKind::Parameter) => 2,
        TokenClass::Symbol(SymbolKind::Player) => 3,
        TokenClass::Symbol(SymbolKind::Piece) => 4,
        TokenClass::Symbol(SymbolKind::Variable) => 5,
        TokenClass::Symbol(SymbolKind::Label) => 6,
        TokenClass::Number => 7,
        TokenClass::String => 8,
        TokenClass::Operator => 9,
        TokenClass::Unresolved => return None,
    })
}

fn completion_kind(kind: CompletionKind) -> CompletionItemKind {
    match kind {
        CompletionKind::Keyword => CompletionItemKind::KEYWORD,
        CompletionKind::Symbol(SymbolKind::Macro) => CompletionItemKind::FUNCTION,
        CompletionKind::Symbol(SymbolKind::Parameter) => CompletionItemKind::VARIABLE,
        CompletionKind::Symbol(SymbolKind::Player) => CompletionItemKind::CLASS,
        CompletionKind::Symbol(SymbolKind::Piece) => CompletionItemKind::ENUM_MEMBER,
        CompletionKind::Symbol(SymbolKind::Variable) => CompletionItemKind::VARIABLE,
        CompletionKind::Symbol(SymbolKind::Label) => CompletionItemKind::PROPERTY,
    }
}

#[allow(deprecated)] // DocumentSymbol::deprecated must be written out.
fn document_symbol(index: &LineIndex, item: &OutlineItem) -> DocumentSymbol {
    let kind = match item.kind {
        OutlineKind::Section => lsp_types::SymbolKind::NAMESPACE,
        OutlineKind::Macro => lsp_types::SymbolKind::FUNCTION,
        OutlineKind::Symbol(SymbolKind::Player) => lsp_types::SymbolKind::CLASS,
        OutlineKind::Symbol(SymbolKind::Piece) => lsp_types::SymbolKind::ENUM_MEMBER,
        OutlineKind::Symbol(SymbolKind::Label) => lsp_types::SymbolKind::PROPERTY,
        OutlineKind::Symbol(_) => lsp_types::SymbolKind::VARIABLE,
    };
    DocumentSymbol {
        name: item.name.clone(),
        detail: (!item.detail.is_empty()).then(|| item.detail.clone()),
        kind,
        tags: None,
        deprecated: None,
        range: index.range(item.span),
        selection_range: index.range(item.name_span),
        children: Some(item.children.iter().map(|c| document_symbol(index, c)).collect()),
    }
}

fn lsp_diagnostic(uri: &Uri, index: &LineIndex, d: &IdeDiagnostic) -> Diagnostic {
    let related = d
        .related
        .iter()
        .map(|r| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), index.range(r.span)),
            message: r.message.clone(),
        })
        .collect::<Vec<_>>();
    Diagnostic {
        range: index.range(d.span),
        severity: Some(match d.severity {
            rbg_ide::Severity::Error => DiagnosticSeverity::ERROR,
            rbg_ide::Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        source: Some("rbg".into()),
        message: d.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

fn publish(uri: Uri, diagnostics: Vec<Diagnostic>) -> Message {
    let params = PublishDiagnosticsParams { uri, diagnostics, version: None };
    Message::Notification(Notification::new(note::PublishDiagnostics::METHOD.into(), params))
}

/// The last segment of a URI's path (its extension tells RBG from SBG).
fn file_name(uri: &Uri) -> &str {
    let path = uri.path().as_str();
    path.rsplit('/').next().unwrap_or(path)
}

fn error(id: RequestId, code: ErrorCode, message: String) -> Response {
    Response::new_err(id, code as i32, message)
}

fn to_json(value: impl serde::Serialize) -> Result<serde_json::Value, Failure> {
    serde_json::to_value(value).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

fn from_json<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T, serde_json::Error> {
    serde_json::from_value(value)
}
