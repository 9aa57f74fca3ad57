//! CRD conversion webhooks, hub and spoke: [`Conversion`] registers the versions of one
//! custom resource, and the [`WebhookServer`](crate::WebhookServer) answers
//! kube-apiserver's `ConversionReview`s for all of them at [`CONVERT_PATH`], on the same
//! port, certificate, limits and metrics as its admission webhooks.
//!
//! **Hub and spoke** (controller-runtime's `conversion.Hub` and `Convertible`): the
//! storage version is the *hub*; every other version, a *spoke*, converts to and from
//! it with `From` (or `TryFrom`) impls, so n versions need 2(n−1) conversions, not
//! n(n−1). A spoke becomes another spoke through the hub.
//!
//! **What kube-apiserver requires, enforced here**: every object of the review is
//! converted to `desiredAPIVersion`, in order; a converted object's `metadata` is the
//! object's own but for its labels and annotations (the rest is restored from the
//! input, whatever the conversion did); the answer echoes the request's `uid`. Any
//! failure (an object of a kind not registered, a version not registered, a `TryFrom`
//! error, a conversion that panics) is answered `result.status: Failure` with a
//! message, and converts nothing: kube-apiserver then fails the request that needed
//! the conversion. A body that is not a `ConversionReview` of
//! `apiextensions.k8s.io/v1` (or `v1beta1`), or whose uid is longer than a UUID, is an
//! HTTP 400, as for admission.
//!
//! **Why one path**: every CRD's conversions are served at `/convert` and dispatched
//! on the objects' group and kind, as controller-runtime does, so a CRD written for a
//! kubebuilder project (`spec.conversion.webhook.clientConfig.service.path: /convert`)
//! works unchanged and registering a version is one line with no path to keep in
//! step. The metrics count every CRD under `webhook="/convert"`.
//!
//! **Lossless round trips**: a field one version lacks would be lost on the way
//! through it (read as v1alpha1, written back). [`stash`] keeps such fields in the
//! annotation [`CONVERSION_DATA_ANNOTATION`] (`wheelhouse.rs/conversion-data`) of the
//! version that lacks them, and [`unstash`] takes them back, as Go's convention
//! (cluster-api's `MarshalData`/`UnmarshalData`) does. The annotation is the client's
//! to write, so a stash may carry only what a client of the main resource may write
//! anyway (spec fields), never status: see [`stash`].
//!
//! **Configuration**: [`Conversion::crd`] merges the versions' CRDs into one (kube's
//! `merge_crds`) with the hub as the storage version, and
//! [`Conversion::crd_with_webhook`] adds `spec.conversion` (strategy `Webhook`,
//! `conversionReviewVersions: [v1]`, the server's Service or URL, `caBundle`).
//!
//! # A worked example
//!
//! `v1` stores a WebApp's `port`; the older `v1alpha1` called it `containerPort` and had
//! no `paused` flag, which it keeps in the annotation so that a v1alpha1 client's
//! update does not unpause the WebApp:
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use wheelhouse_webhook::conversion::{self, Conversion};
//! use wheelhouse_webhook::{WebhookOptions, WebhookServer};
//!
//! mod v1 {
//!     use kube::CustomResource;
//!     use schemars::JsonSchema;
//!     use serde::{Deserialize, Serialize};
//!     #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
//!     #[kube(group = "example.com", version = "v1", kind = "WebApp", namespaced)]
//!     pub struct WebAppSpec { pub image: String, pub port: i32, pub paused: bool }
//! }
//!
//! mod v1alpha1 {
//!     use kube::CustomResource;
//!     use schemars::JsonSchema;
//!     use serde::{Deserialize, Serialize};
//!     #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
//!     #[kube(group = "example.com", version = "v1alpha1", kind = "WebApp", namespaced)]
//!     #[serde(rename_all = "camelCase")]
//!     pub struct WebAppSpec { pub image: String, pub container_port: i32 }
//! }
//!
//! /// What v1 has and v1alpha1 lacks, kept in v1alpha1's annotation.
//! #[derive(Serialize, Deserialize, Default)]
//! struct Lacking { paused: bool }
//!
//! impl From<v1alpha1::WebApp> for v1::WebApp {
//!     fn from(old: v1alpha1::WebApp) -> Self {
//!         let mut metadata = old.metadata;
//!         let lacking: Lacking = conversion::unstash(&mut metadata).ok().flatten().unwrap_or_default();
//!         let spec = v1::WebAppSpec { image: old.spec.image, port: old.spec.container_port, paused: lacking.paused };
//!         v1::WebApp { metadata, spec }
//!     }
//! }
//!
//! impl From<v1::WebApp> for v1alpha1::WebApp {
//!     fn from(hub: v1::WebApp) -> Self {
//!         let mut metadata = hub.metadata;
//!         if hub.spec.paused {
//!             conversion::stash(&mut metadata, &Lacking { paused: true }).expect("a bool encodes");
//!         }
//!         let spec = v1alpha1::WebAppSpec { image: hub.spec.image, container_port: hub.spec.port };
//!         v1alpha1::WebApp { metadata, spec }
//!     }
//! }
//!
//! // Registering is one line; v1 is the hub and the storage version.
//! let webapps = Conversion::hub::<v1::WebApp>().spoke::<v1alpha1::WebApp>();
//! assert_eq!(webapps.versions(), ["v1", "v1alpha1"]);
//!
//! // The multi-version CRD, v1 stored.
//! let crd = webapps.crd().unwrap();
//! let stored: Vec<_> = crd.spec.versions.iter().filter(|v| v.storage).map(|v| v.name.as_str()).collect();
//! assert_eq!(stored, ["v1"]);
//!
//! // The server answers ConversionReviews at /convert.
//! let server = WebhookServer::new(WebhookOptions::default()).conversion(webapps);
//! assert_eq!(server.paths(), ["/convert"]);
//! ```

mod lossless;
mod manifests;
mod review;

use std::fmt::{self, Debug, Display};
use std::marker::PhantomData;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::CustomResourceExt;
use serde_json::value::RawValue;

pub use self::lossless::{CONVERSION_DATA_ANNOTATION, stash, unstash};
pub use self::manifests::webhook_conversion;
pub(crate) use self::review::answer;

use crate::registration::Object;

/// The path every conversion is served at.
pub const CONVERT_PATH: &str = "/convert";

/// The versions of one custom resource and how each converts: `H` is the hub (the
/// storage version), the spokes convert to and from it. Built in one line,
/// `Conversion::hub::<v1::WebApp>().spoke::<v1alpha1::WebApp>()`, and served with
/// [`WebhookServer::conversion`](crate::WebhookServer::conversion). See the
/// [module](self) for a worked example.
pub struct Conversion<H> {
    group: String,
    kind: String,
    hub_version: String,
    hub_crd: fn() -> CustomResourceDefinition,
    spokes: Vec<Spoke<H>>,
    _hub: PhantomData<fn() -> H>,
}

/// One spoke's conversions, with its type erased.
struct Spoke<H> {
    version: String,
    to_hub: fn(&str) -> Result<(H, ObjectMeta), String>,
    from_hub: fn(H, ObjectMeta) -> Result<Box<RawValue>, String>,
    crd: fn() -> CustomResourceDefinition,
}

// Derived Clone would ask `H: Clone`; the fields are all cloneable without it.
impl<H> Clone for Spoke<H> {
    fn clone(&self) -> Self {
        Self {
            version: self.version.clone(),
            ..*self
        }
    }
}

impl<H> Clone for Conversion<H> {
    fn clone(&self) -> Self {
        Self {
            group: self.group.clone(),
            kind: self.kind.clone(),
            hub_version: self.hub_version.clone(),
            hub_crd: self.hub_crd,
            spokes: self.spokes.clone(),
            _hub: PhantomData,
        }
    }
}

impl<H> Debug for Conversion<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Conversion")
            .field("group", &self.group)
            .field("kind", &self.kind)
            .field("hub", &self.hub_version)
            .field(
                "spokes",
                &self.spokes.iter().map(|s| s.version.as_str()).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl Conversion<()> {
    /// The conversions of `H`'s custom resource, with `H` as the hub: the storage
    /// version, which every other version converts to and from.
    pub fn hub<H: Object + CustomResourceExt>() -> Conversion<H> {
        Conversion {
            group: H::group(&()).into_owned(),
            kind: H::kind(&()).into_owned(),
            hub_version: H::version(&()).into_owned(),
            hub_crd: H::crd,
            spokes: Vec::new(),
            _hub: PhantomData,
        }
    }
}

impl<H: Object + CustomResourceExt> Conversion<H> {
    /// Adds the version `S`, converted to the hub with `H: TryFrom<S>` and back with
    /// `S: TryFrom<H>` (a `From` impl gives both). A conversion error is answered as
    /// the review's failure, with the error's message.
    ///
    /// # Panics
    /// When `S` is not a version of the hub's resource (another group or kind), or
    /// is the hub's own version or one already added: a mistake in the code that
    /// registers, which no input can cause.
    #[must_use]
    pub fn spoke<S>(mut self) -> Self
    where
        S: Object + CustomResourceExt,
        H: TryFrom<S>,
        S: TryFrom<H>,
        <H as TryFrom<S>>::Error: Display,
        <S as TryFrom<H>>::Error: Display,
    {
        let version = S::version(&()).into_owned();
        assert!(
            S::group(&()) == self.group && S::kind(&()) == self.kind,
            "{}.{} {version} is not a version of {}.{}",
            S::kind(&()),
            S::group(&()),
            self.kind,
            self.group
        );
        assert!(
            version != self.hub_version && self.spokes.iter().all(|s| s.version != version),
            "version {version} of {}.{} is registered twice",
            self.kind,
            self.group
        );
        self.spokes.push(Spoke {
            version,
            to_hub: to_hub::<H, S>,
            from_hub: from_hub::<H, S>,
            crd: S::crd,
        });
        self
    }
}

impl<H> Conversion<H> {
    /// The API group.
    pub fn group(&self) -> &str {
        &self.group
    }

    /// The kind.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The hub's version: the storage version.
    pub fn hub_version(&self) -> &str {
        &self.hub_version
    }

    /// Every version, the hub first, then the spokes in the order they were added.
    pub fn versions(&self) -> Vec<&str> {
        std::iter::once(self.hub_version.as_str())
            .chain(self.spokes.iter().map(|s| s.version.as_str()))
            .collect()
    }

    fn spoke_of(&self, version: &str) -> Option<&Spoke<H>> {
        self.spokes.iter().find(|s| s.version == version)
    }
}

/// Decodes a spoke and converts it to the hub; with the hub, the spoke's metadata as
/// it came.
fn to_hub<H, S>(raw: &str) -> Result<(H, ObjectMeta), String>
where
    S: Object,
    H: TryFrom<S>,
    <H as TryFrom<S>>::Error: Display,
{
    let spoke: S = serde_json::from_str(raw).map_err(|e| format!("does not decode as {}: {e}", S::api_version(&())))?;
    let metadata = spoke.meta().clone();
    let hub = H::try_from(spoke).map_err(|e| format!("does not convert to the hub: {e}"))?;
    Ok((hub, metadata))
}

/// Converts the hub to a spoke, gives it `metadata` (but for its own labels and
/// annotations), and encodes it.
fn from_hub<H, S>(hub: H, metadata: ObjectMeta) -> Result<Box<RawValue>, String>
where
    S: Object + TryFrom<H>,
    <S as TryFrom<H>>::Error: Display,
{
    let mut spoke = S::try_from(hub).map_err(|e| format!("does not convert to {}: {e}", S::api_version(&())))?;
    keep_metadata(spoke.meta_mut(), metadata);
    encode(&spoke)
}

fn encode<K: Object>(object: &K) -> Result<Box<RawValue>, String> {
    serde_json::value::to_raw_value(object).map_err(|e| format!("{} does not encode: {e}", K::api_version(&())))
}

/// kube-apiserver refuses a conversion that changes any of `metadata` but labels and
/// annotations: the input's metadata is put back, with the converted object's labels
/// and annotations. (The input's metadata is kept as `ObjectMeta` models it, which is
/// every field of the Kubernetes versions k8s-openapi knows.)
fn keep_metadata(converted: &mut ObjectMeta, mut input: ObjectMeta) {
    input.labels = converted.labels.take();
    input.annotations = converted.annotations.take();
    *converted = input;
}

/// What the server needs of a registered conversion, its types erased.
pub(crate) trait Converts: Send + Sync + 'static {
    fn group(&self) -> &str;
    fn kind(&self) -> &str;
    fn has_version(&self, version: &str) -> bool;
    fn versions(&self) -> Vec<&str>;
    /// Converts one object (its JSON, of version `from`) to version `to`, its
    /// metadata kept but for labels and annotations; the error says why, without the
    /// object's name (the caller adds it).
    fn convert(&self, raw: &str, from: &str, to: &str) -> Result<Box<RawValue>, String>;
    /// The CRD of every version, converted by the server `options` reach (what the
    /// `envtest` helpers install).
    #[cfg(feature = "envtest")]
    fn crd_with_webhook(&self, options: &crate::ConfigurationOptions)
    -> Result<CustomResourceDefinition, crate::Error>;
}

impl<H: Object> Converts for Conversion<H> {
    fn group(&self) -> &str {
        &self.group
    }

    fn kind(&self) -> &str {
        &self.kind
    }

    fn has_version(&self, version: &str) -> bool {
        version == self.hub_version || self.spoke_of(version).is_some()
    }

    fn versions(&self) -> Vec<&str> {
        Conversion::versions(self)
    }

    fn convert(&self, raw: &str, from: &str, to: &str) -> Result<Box<RawValue>, String> {
        let (mut hub, metadata) = if from == self.hub_version {
            let hub: H =
                serde_json::from_str(raw).map_err(|e| format!("does not decode as {}: {e}", H::api_version(&())))?;
            let metadata = hub.meta().clone();
            (hub, metadata)
        } else {
            let spoke = self
                .spoke_of(from)
                .ok_or_else(|| format!("version {from} is not registered"))?;
            (spoke.to_hub)(raw)?
        };
        if to == self.hub_version {
            keep_metadata(hub.meta_mut(), metadata);
            return encode(&hub);
        }
        let spoke = self
            .spoke_of(to)
            .ok_or_else(|| format!("version {to} is not registered"))?;
        (spoke.from_hub)(hub, metadata)
    }

    #[cfg(feature = "envtest")]
    fn crd_with_webhook(
        &self,
        options: &crate::ConfigurationOptions,
    ) -> Result<CustomResourceDefinition, crate::Error> {
        Conversion::crd_with_webhook(self, options)
    }
}

/// The registered conversions, one per group and kind (a few per server: a linear
/// search by borrowed names beats hashing owned keys for each object).
#[derive(Default, Clone)]
pub(crate) struct Conversions {
    registered: Vec<std::sync::Arc<dyn Converts>>,
}

impl Conversions {
    /// Adds `conversion`; false when its group and kind already have one.
    pub fn add(&mut self, conversion: std::sync::Arc<dyn Converts>) -> bool {
        if self.get(conversion.group(), conversion.kind()).is_some() {
            return false;
        }
        self.registered.push(conversion);
        true
    }

    pub fn is_empty(&self) -> bool {
        self.registered.is_empty()
    }

    /// Every registered conversion, in registration order.
    #[cfg(feature = "envtest")]
    pub fn iter(&self) -> impl Iterator<Item = &dyn Converts> {
        self.registered.iter().map(AsRef::as_ref)
    }

    pub fn get(&self, group: &str, kind: &str) -> Option<&dyn Converts> {
        self.registered
            .iter()
            .find(|c| c.group() == group && c.kind() == kind)
            .map(AsRef::as_ref)
    }
}
