//! Language server stage: `cardgame lsp`, a Language Server Protocol server over standard input and
//! output (rust-analyzer's `lsp-server`): the main loop, which hands each request to its handler.
//!
//! Every open script is parsed and checked again on each change with the same parser and checker as
//! `cardgame check`; hover, definitions, references and rename read the checker's table of resolved names.

mod complete;
mod diagnostics;
mod document;
mod formatting;
mod hover;
mod keywords;
mod navigate;
mod outline;
mod sheet;
#[cfg(test)]
mod tests;

use document::Document;
use lsp_server::{Connection, ErrorCode, ExtractError, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    Notification as NotificationTrait, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest,
    PrepareRenameRequest, References, RegisterCapability, Rename, Request as RequestTrait,
};
use lsp_types::{
    CompletionOptions, DocumentSymbolResponse, GotoDefinitionResponse, HoverProviderCapability,
    OneOf, PublishDiagnosticsParams, RenameOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri, WorkDoneProgressOptions,
};
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".to_string(), "\"".to_string()]),
            ..CompletionOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// How the main loop ended: with the connection closed (the threads that read and write it can be
/// joined), or on a protocol error (the reading thread may still wait on standard input).
enum End {
    Closed(u8),
    Broken(u8),
}

/// Run the server until the client says `exit`; the exit code is 0 when it said `shutdown` first.
pub fn run() -> u8 {
    let (connection, io_threads) = Connection::stdio();
    let init = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "cardgame".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        },
    });
    // Requests before `initialize` are answered `ServerNotInitialized`. The `initialized`
    // notification is not waited for: a client that sends `didOpen` first is served all the same.
    let end = match connection.initialize_start() {
        Ok((id, params)) => {
            // An editor that can watch files for the server is asked to watch the card sheets.
            let watch = serde_json::from_value::<lsp_types::InitializeParams>(params)
                .ok()
                .and_then(|p| p.capabilities.workspace?.did_change_watched_files)
                .and_then(|w| w.dynamic_registration)
                .unwrap_or(false);
            let register = Request::new(
                "cardgame-watch-sheets".to_string().into(),
                RegisterCapability::METHOD.to_string(),
                sheet::watch_registration(),
            );
            let sent = connection
                .sender
                .send(Response::new_ok(id, init).into())
                .is_ok()
                && (!watch || connection.sender.send(register.into()).is_ok());
            match sent {
                true => serve(&connection),
                false => End::Broken(1),
            }
        }
        Err(e) => {
            eprintln!("cardgame lsp: {e}");
            End::Broken(1)
        }
    };
    drop(connection);
    match end {
        End::Closed(code) => match io_threads.join() {
            Ok(()) => code,
            Err(e) => {
                eprintln!("cardgame lsp: {e}");
                1
            }
        },
        // Returning ends the process, and with it a thread still reading standard input.
        End::Broken(code) => code,
    }
}

/// The main loop: answers every request, and republishes a script's diagnostics on every change.
fn serve(connection: &Connection) -> End {
    let mut server = Server {
        docs: HashMap::new(),
    };
    for msg in &connection.receiver {
        let out = match msg {
            Message::Request(req) => {
                match connection.handle_shutdown(&req) {
                    Ok(true) => return End::Closed(0),
                    Ok(false) => {}
                    Err(e) => {
                        eprintln!("cardgame lsp: {e}");
                        return End::Broken(1);
                    }
                }
                vec![Message::Response(server.request(req))]
            }
            Message::Notification(n) if n.method == "exit" => return End::Closed(1),
            Message::Notification(n) => server.notification(n),
            // The editor's answer to the registration of the sheets' watch: nothing to do.
            Message::Response(_) => vec![],
        };
        for m in out {
            if connection.sender.send(m).is_err() {
                return End::Broken(1);
            }
        }
    }
    // Standard input ended without `exit`.
    End::Closed(1)
}

struct Server {
    docs: HashMap<String, Document>,
}

/// A notification's parameters; a malformed notification cannot be answered, so it is reported on
/// standard error (which editors show in their log) and ignored.
fn notification_params<N: NotificationTrait>(n: Notification) -> Option<N::Params> {
    match n.extract::<N::Params>(N::METHOD) {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!("cardgame lsp: ignored a malformed {}: {e}", N::METHOD);
            None
        }
    }
}

/// A request's parameters, or the protocol error that answers a malformed request.
fn params<P: DeserializeOwned>(req: Request, method: &str) -> Result<P, Response> {
    let id = req.id.clone();
    match req.extract::<P>(method) {
        Ok((_, p)) => Ok(p),
        Err(ExtractError::JsonError { error, .. }) => Err(Response::new_err(
            id,
            ErrorCode::InvalidParams as i32,
            format!("invalid parameters for {method}: {error}"),
        )),
        Err(ExtractError::MethodMismatch(r)) => Err(Response::new_err(
            r.id,
            ErrorCode::MethodNotFound as i32,
            format!("unknown method {}", r.method),
        )),
    }
}

fn ok<R: serde::Serialize>(id: lsp_server::RequestId, result: R) -> Response {
    match serde_json::to_value(result) {
        Ok(v) => Response {
            id,
            response_result: Ok(v),
        },
        Err(e) => Response::new_err(id, ErrorCode::InternalError as i32, e.to_string()),
    }
}

impl Server {
    fn doc(&self, uri: &Uri) -> Option<&Document> {
        self.docs.get(uri.as_str())
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let method = req.method.clone();
        // A handler that panics is a bug; the editor still gets an answer and the server goes on.
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(req))) {
            Ok(r) => r,
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("internal error in {method} (a bug in cardgame: please report it)"),
            ),
        }
    }

    fn dispatch(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        macro_rules! handle {
            ($r:ty, |$p:ident| $body:expr) => {
                match params::<<$r as RequestTrait>::Params>(req, <$r>::METHOD) {
                    Ok($p) => $body,
                    Err(resp) => return resp,
                }
            };
        }
        match req.method.as_str() {
            HoverRequest::METHOD => handle!(HoverRequest, |p| {
                let at = p.text_document_position_params;
                ok(
                    id,
                    self.doc(&at.text_document.uri)
                        .and_then(|d| hover::hover(d, at.position)),
                )
            }),
            GotoDefinition::METHOD => handle!(GotoDefinition, |p| {
                let at = p.text_document_position_params;
                let loc = self
                    .doc(&at.text_document.uri)
                    .and_then(|d| navigate::definition(d, at.position));
                ok(id, loc.map(GotoDefinitionResponse::Scalar))
            }),
            References::METHOD => handle!(References, |p| {
                let at = p.text_document_position;
                let locs = self
                    .doc(&at.text_document.uri)
                    .map(|d| navigate::references(d, at.position, p.context.include_declaration));
                ok(id, locs)
            }),
            Completion::METHOD => handle!(Completion, |p| {
                let at = p.text_document_position;
                let items = self
                    .doc(&at.text_document.uri)
                    .map(|d| complete::complete(d, at.position));
                ok(id, items)
            }),
            DocumentSymbolRequest::METHOD => handle!(DocumentSymbolRequest, |p| {
                let syms = self
                    .doc(&p.text_document.uri)
                    .map(|d| DocumentSymbolResponse::Nested(outline::outline(d)));
                ok(id, syms)
            }),
            PrepareRenameRequest::METHOD => handle!(PrepareRenameRequest, |p| {
                let r = self
                    .doc(&p.text_document.uri)
                    .and_then(|d| navigate::prepare_rename(d, p.position));
                ok(id, r)
            }),
            Rename::METHOD => handle!(Rename, |p| {
                let at = p.text_document_position;
                match self.doc(&at.text_document.uri) {
                    None => ok(id, None::<()>),
                    Some(d) => match navigate::rename(d, at.position, &p.new_name) {
                        Ok(edit) => ok(id, edit),
                        Err(why) => Response::new_err(id, ErrorCode::InvalidParams as i32, why),
                    },
                }
            }),
            Formatting::METHOD => handle!(Formatting, |p| {
                match self.doc(&p.text_document.uri).map(formatting::formatting) {
                    None => ok(id, None::<()>),
                    Some(Ok(edits)) => ok(id, edits),
                    Some(Err(why)) => Response::new_err(id, ErrorCode::RequestFailed as i32, why),
                }
            }),
            m => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("cardgame lsp does not handle {m}"),
            ),
        }
    }

    /// Handle a notification; the messages to send in return (diagnostics).
    fn notification(&mut self, n: Notification) -> Vec<Message> {
        let method = n.method.clone();
        let result = catch_unwind(AssertUnwindSafe(|| self.notify(n)));
        match result {
            Ok(out) => out,
            Err(_) => {
                eprintln!("cardgame lsp: internal error in {method} (a bug in cardgame: please report it)");
                vec![]
            }
        }
    }

    fn notify(&mut self, n: Notification) -> Vec<Message> {
        let uri = match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Some(p) = notification_params::<DidOpenTextDocument>(n) else {
                    return vec![];
                };
                let doc = p.text_document;
                let key = doc.uri.as_str().to_string();
                self.docs
                    .insert(key.clone(), Document::new(doc.uri, doc.version, doc.text));
                key
            }
            DidChangeTextDocument::METHOD => {
                let Some(p) = notification_params::<DidChangeTextDocument>(n) else {
                    return vec![];
                };
                let key = p.text_document.uri.as_str().to_string();
                match self.docs.get_mut(&key) {
                    Some(d) => d.apply(p.text_document.version, p.content_changes),
                    None => return vec![],
                }
                key
            }
            DidCloseTextDocument::METHOD => {
                let Some(p) = notification_params::<DidCloseTextDocument>(n) else {
                    return vec![];
                };
                self.docs.remove(p.text_document.uri.as_str());
                // Closed: its diagnostics go away.
                let params = PublishDiagnosticsParams::new(p.text_document.uri, vec![], None);
                return vec![Message::Notification(Notification::new(
                    PublishDiagnostics::METHOD.to_string(),
                    params,
                ))];
            }
            DidChangeWatchedFiles::METHOD => {
                let Some(p) = notification_params::<DidChangeWatchedFiles>(n) else {
                    return vec![];
                };
                return self.sheets_changed(&p.changes);
            }
            _ => return vec![],
        };
        self.docs.get(&uri).map(published).into_iter().collect()
    }

    /// Checks again every open script that reads one of the sheets changed on disk; their new
    /// diagnostics.
    fn sheets_changed(&mut self, changes: &[lsp_types::FileEvent]) -> Vec<Message> {
        let changed: Vec<std::path::PathBuf> = changes
            .iter()
            .filter_map(|c| document::file_path(&c.uri))
            .map(|p| sheet::normal(&p))
            .collect();
        let mut out = Vec::new();
        for doc in self.docs.values_mut() {
            if sheet::sheets_read(doc).iter().any(|s| changed.contains(s)) {
                doc.recheck();
                out.push(published(doc));
            }
        }
        out
    }
}

/// The `publishDiagnostics` notification of a document's diagnostics now.
fn published(doc: &Document) -> Message {
    let params =
        PublishDiagnosticsParams::new(doc.uri.clone(), diagnostics::of(doc), Some(doc.version));
    Message::Notification(Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        params,
    ))
}
