//! What a worker produces: the [`Outputs`] trait (`()`, `Vec<T>`, tuples of them), and
//! how the scheduler applies them: server-side apply as the controller's field manager,
//! the resource as controller owner, labels naming the owner and the phase, skipping
//! applies the cache shows in place, then deleting what the same phase produced before
//! and no longer returns (pruning).

use std::any::{Any, TypeId, type_name};
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Debug};
use std::future::Future;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, Preconditions};
use wheelhouse_cache::{Cache, ListOptions, Scope, ScopeKind, Store};

use crate::apply::Applier;
use crate::controller::Builder;
use crate::phase::object::{MANAGED_BY_LABEL, OWNER_UID_LABEL, Object, PHASE_LABEL, Phased, Registration};
use crate::reconciler::Error;

/// The name of the index, on every output type's store, of objects by the uid of
/// their controller owner.
const OWNER_INDEX: &str = "wheelhouse.rs/owner";

/// The objects a worker wants to exist: `()` for none, `Vec<T>` for objects of one
/// type, or a tuple of `Vec`s. A `Vec` is the whole set of its type for this phase of
/// this resource: objects of that type the phase produced earlier and no longer
/// returns are deleted. Types a worker does not declare are left alone.
///
/// Composite outputs implement it by delegating to [`OutputTypes::declare`] and
/// [`OutputTarget::apply_all`] for each type.
pub trait Outputs: Send + 'static {
    /// Declares the output types: the controller owns them (a change to one syncs its
    /// owner) and caches them, to skip applies that would change nothing and to prune.
    fn declare<K: Phased>(types: &mut OutputTypes<K>);

    /// Applies the outputs, then prunes each declared type.
    fn apply(self, target: &OutputTarget<'_>) -> impl Future<Output = Result<(), Error>> + Send;
}

impl Outputs for () {
    fn declare<K: Phased>(_: &mut OutputTypes<K>) {}

    async fn apply(self, _: &OutputTarget<'_>) -> Result<(), Error> {
        Ok(())
    }
}

impl<T: Object> Outputs for Vec<T> {
    fn declare<K: Phased>(types: &mut OutputTypes<K>) {
        types.declare::<T>();
    }

    async fn apply(self, target: &OutputTarget<'_>) -> Result<(), Error> {
        target.apply_all(self).await
    }
}

macro_rules! tuple_outputs {
    ($($name:ident $index:tt),+) => {
        impl<$($name: Outputs),+> Outputs for ($($name,)+) {
            fn declare<K: Phased>(types: &mut OutputTypes<K>) {
                $($name::declare(types);)+
            }

            async fn apply(self, target: &OutputTarget<'_>) -> Result<(), Error> {
                $(self.$index.apply(target).await?;)+
                Ok(())
            }
        }
    };
}

tuple_outputs!(A 0);
tuple_outputs!(A 0, B 1);
tuple_outputs!(A 0, B 1, C 2);
tuple_outputs!(A 0, B 1, C 2, D 3);

/// One output type: its applier (skips applies the cache shows in place) and store.
struct Kind<T: Object> {
    applier: Applier<T>,
    store: Store<T>,
}

/// The output types of a controller's workers; [`Outputs::declare`] adds to it.
pub struct OutputTypes<K: Phased> {
    cache: Cache,
    scope: Scope,
    field_manager: String,
    kinds: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
    registrations: Vec<Registration<K>>,
}

impl<K: Phased> Debug for OutputTypes<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OutputTypes")
            .field("field_manager", &self.field_manager)
            .field("types", &self.kinds.len())
            .finish_non_exhaustive()
    }
}

impl<K: Phased> OutputTypes<K> {
    pub(crate) fn new(cache: &Cache, scope: &Scope, field_manager: &str) -> Self {
        Self {
            cache: cache.clone(),
            scope: scope.clone(),
            field_manager: field_manager.to_owned(),
            kinds: HashMap::new(),
            registrations: Vec::new(),
        }
    }

    /// Declares `T` as an output type (once, however many workers return it).
    pub fn declare<T: Object>(&mut self) {
        if self.kinds.contains_key(&TypeId::of::<T>()) {
            return;
        }
        let informer = self
            .cache
            .informer::<T>(crate::controller::children_scope(&self.cache, &self.scope));
        informer.store().add_index(OWNER_INDEX, |object: &T| {
            crate::owner::controller_of(object)
                .map(|owner| owner.uid.clone())
                .into_iter()
                .collect()
        });
        let kind = Kind {
            applier: Applier::new(&informer, self.field_manager.clone()),
            store: informer.store().clone(),
        };
        self.kinds.insert(TypeId::of::<T>(), Box::new(kind));
        self.registrations.push(Box::new(Builder::owns_full::<T>));
    }

    /// Makes the controller own the output types, and returns their appliers.
    pub(crate) fn finish(self, mut builder: Builder<K>) -> (Builder<K>, OutputKinds) {
        for register in self.registrations {
            builder = register(builder);
        }
        (builder, OutputKinds(self.kinds))
    }
}

/// The appliers and stores of the output types, by type.
pub(crate) struct OutputKinds(HashMap<TypeId, Box<dyn Any + Send + Sync>>);

/// Where one sync's outputs go: the resource that owns them, the phase that produced
/// them, the field manager and the caches. Made by the scheduler for each sync.
pub struct OutputTarget<'a> {
    pub(crate) client: kube::Client,
    pub(crate) namespace: Option<&'a str>,
    pub(crate) owner: OwnerReference,
    pub(crate) phase: &'a str,
    pub(crate) controller: &'a str,
    pub(crate) kinds: &'a OutputKinds,
}

impl Debug for OutputTarget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OutputTarget")
            .field("owner", &self.owner.name)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

impl OutputTarget<'_> {
    /// Applies `objects` (in the owner's namespace unless they name one), each with
    /// the owner as controller owner and the owner and phase labels; then deletes the
    /// `T` objects this phase produced for the owner before and `objects` lacks.
    pub async fn apply_all<T: Object>(&self, objects: Vec<T>) -> Result<(), Error> {
        let kind = self
            .kinds
            .0
            .get(&TypeId::of::<T>())
            .and_then(|k| k.downcast_ref::<Kind<T>>())
            .ok_or_else(|| {
                Error::terminal(format!(
                    "{} is returned as an output but not declared; return it through a Vec<{0}> in Worker::Outputs",
                    type_name::<T>()
                ))
            })?;
        let mut kept = HashSet::new();
        for mut object in objects {
            self.stamp(&mut object);
            let namespace = object.namespace();
            kept.insert((namespace.clone(), object.name_any()));
            let api: Api<T> = T::Scope::api(self.client.clone(), namespace.as_deref(), &());
            kind.applier.apply(&api, &object).await?;
        }
        self.prune(&kind.store, &kept).await
    }

    /// Sets the namespace, labels and controller owner of an output.
    fn stamp<T: Object>(&self, object: &mut T) {
        let meta = object.meta_mut();
        if meta.namespace.is_none() {
            meta.namespace = self.namespace.map(str::to_owned);
        }
        let labels = meta.labels.get_or_insert_default();
        labels.insert(OWNER_UID_LABEL.to_owned(), self.owner.uid.clone());
        labels.insert(PHASE_LABEL.to_owned(), self.phase.to_owned());
        labels.insert(MANAGED_BY_LABEL.to_owned(), self.controller.to_owned());
        let owners = meta.owner_references.get_or_insert_default();
        owners.retain(|o| o.controller != Some(true) || o.uid == self.owner.uid);
        if !owners.iter().any(|o| o.uid == self.owner.uid) {
            owners.push(self.owner.clone());
        }
    }

    /// Deletes the objects this controller applied for the owner in this phase that
    /// are not in `kept`. A stale cache can only miss an object applied moments ago
    /// (its arrival syncs the owner again, which prunes it then), never delete one
    /// just applied: those are in `kept`.
    async fn prune<T: Object>(&self, store: &Store<T>, kept: &HashSet<(Option<String>, String)>) -> Result<(), Error> {
        let owned = store
            .list(&ListOptions {
                index: Some((OWNER_INDEX.to_owned(), self.owner.uid.clone())),
                ..ListOptions::default()
            })
            .map_err(Error::new)?;
        for object in owned {
            let labels = object.labels();
            let ours = labels.get(PHASE_LABEL).map(String::as_str) == Some(self.phase)
                && labels.get(MANAGED_BY_LABEL).map(String::as_str) == Some(self.controller);
            let key = (object.namespace(), object.name_any());
            if !ours || kept.contains(&key) {
                continue;
            }
            let api: Api<T> = T::Scope::api(self.client.clone(), key.0.as_deref(), &());
            let only_this_one = DeleteParams {
                preconditions: Some(Preconditions {
                    uid: object.uid(),
                    resource_version: None,
                }),
                ..DeleteParams::background()
            };
            tracing::debug!(kind = %T::kind(&()), name = %key.1, phase = self.phase, "pruning an output the phase no longer returns");
            match api.delete(&key.1, &only_this_one).await {
                // Gone already, or replaced by another object of the same name.
                Ok(_) => {}
                Err(kube::Error::Api(status)) if matches!(status.code, 404 | 409) => {}
                Err(error) => return Err(error.into()),
            }
        }
        Ok(())
    }
}
