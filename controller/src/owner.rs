//! Owner references: which object a child belongs to, for garbage collection and for
//! `Builder::owns` to map a child's changes back to its owner.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::Resource;

/// The reference that makes `parent` the controller owner of a child (`controller`
/// and `blockOwnerDeletion` set); None if the parent has no uid yet (not created).
///
/// ```
/// use k8s_openapi::api::apps::v1::Deployment;
/// use wheelhouse_controller::owner;
///
/// let mut parent = Deployment::default();
/// parent.metadata.name = Some("web".into());
/// assert!(owner::controller_ref(&parent).is_none(), "no uid yet");
/// parent.metadata.uid = Some("1234".into());
/// let reference = owner::controller_ref(&parent).unwrap();
/// assert_eq!((reference.kind.as_str(), reference.controller), ("Deployment", Some(true)));
/// ```
pub fn controller_ref<K>(parent: &K) -> Option<OwnerReference>
where
    K: Resource,
    K::DynamicType: Default,
{
    let mut reference = parent.controller_owner_ref(&K::DynamicType::default())?;
    reference.block_owner_deletion = Some(true);
    Some(reference)
}

/// The controller owner of `child`, if it has one.
pub fn controller_of<K: Resource>(child: &K) -> Option<&OwnerReference> {
    child
        .meta()
        .owner_references
        .iter()
        .flatten()
        .find(|r| r.controller == Some(true))
}
