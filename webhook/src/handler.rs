//! [`Handler`]: a webhook over kube's raw `AdmissionRequest`/`AdmissionResponse`, for
//! what a typed validator or defaulter cannot express, and its adapter to the
//! dispatcher's `Route`.

use std::future::Future;

use futures::future::BoxFuture;
use kube::core::admission::{AdmissionRequest, AdmissionResponse};
use kube::core::{DynamicObject, TypeMeta};
use serde_json::value::RawValue;

use crate::dispatch::Route;
use crate::request::Request;
use crate::review::Verdict;

/// A webhook that takes the whole request and writes the whole response, with kube's
/// admission types. The server sets the response's `uid` from the request, so a
/// handler cannot get it wrong.
///
/// A closure is a handler:
///
/// ```
/// use kube::core::admission::{AdmissionRequest, AdmissionResponse};
/// use kube::core::DynamicObject;
/// use wheelhouse_webhook::{WebhookOptions, WebhookServer};
///
/// let server = WebhookServer::new(WebhookOptions::default()).handler(
///     "/deny-friday-deploys",
///     |request: AdmissionRequest<DynamicObject>| async move {
///         AdmissionResponse::from(&request).deny("no deploys on Friday")
///     },
/// );
/// # let _ = server;
/// ```
pub trait Handler: Send + Sync + 'static {
    /// Decides on one request.
    fn handle(&self, request: AdmissionRequest<DynamicObject>) -> impl Future<Output = AdmissionResponse> + Send;
}

impl<F, Fut> Handler for F
where
    F: Fn(AdmissionRequest<DynamicObject>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = AdmissionResponse> + Send,
{
    fn handle(&self, request: AdmissionRequest<DynamicObject>) -> impl Future<Output = AdmissionResponse> + Send {
        self(request)
    }
}

/// A raw [`Handler`] as a route.
pub(crate) struct Raw<H>(pub H);

impl<H: Handler> Route for Raw<H> {
    fn admit<'a>(
        &'a self,
        request: &'a Request,
        object: Option<&'a RawValue>,
        old_object: Option<&'a RawValue>,
    ) -> BoxFuture<'a, Verdict> {
        Box::pin(async move {
            let decode = |raw: Option<&RawValue>, which: &str| match raw {
                Some(raw) => serde_json::from_str::<DynamicObject>(raw.get())
                    .map(Some)
                    .map_err(|e| format!("request.{which} is not a Kubernetes object: {e}")),
                None => Ok(None),
            };
            let (object, old_object) = match (decode(object, "object"), decode(old_object, "oldObject")) {
                (Ok(object), Ok(old_object)) => (object, old_object),
                (Err(message), _) | (_, Err(message)) => return Verdict::bad_request(&message),
            };
            let request = AdmissionRequest {
                types: TypeMeta {
                    api_version: crate::review::ADMISSION_V1.to_owned(),
                    kind: "AdmissionReview".to_owned(),
                },
                uid: request.uid.clone(),
                kind: request.kind.clone(),
                resource: request.resource.clone(),
                sub_resource: request.sub_resource.clone(),
                request_kind: None,
                request_resource: None,
                request_sub_resource: None,
                name: request.name.clone(),
                namespace: request.namespace.clone(),
                operation: request.operation.clone(),
                user_info: request.user_info.clone(),
                object,
                old_object,
                dry_run: request.dry_run,
                options: request.options.clone(),
            };
            Verdict::from(self.0.handle(request).await)
        })
    }
}
