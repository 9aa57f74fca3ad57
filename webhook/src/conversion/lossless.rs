//! Lossless round trips through a version that lacks some fields: [`stash`] keeps them
//! in an annotation of the version that lacks them, [`unstash`] takes them back.
//!
//! **A stash is what its client wrote.** The annotation is metadata, which anyone who
//! may update the object writes through the main resource, in any version. And
//! kube-apiserver handles a write in the version it was made in: it resets the status
//! of a main-resource write from the stored object *converted to that version* (which
//! lacks what was stashed), then converts the result for storage, unstashing whatever
//! the client left in the annotation. So stash only what a client of the main
//! resource may write anyway: spec fields (RBAC is per resource, not per version; a
//! client that forges one could have written it through the hub). Never stash status
//! or any field the operator alone owns: leave it out of the older version and let the
//! operator compute it again (the WebApp example drops its conditions this way, and
//! reconciles a WebApp whose conditions went missing).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The annotation that carries, on an object of a version that lacks some of the
/// hub's fields, those fields as JSON: `wheelhouse.rs/conversion-data` (Go projects
/// name theirs after their group, as cluster-api's `cluster.x-k8s.io/conversion-data`).
/// Only labels and annotations may differ between an object and its conversion, so
/// an annotation is where such data can travel.
pub const CONVERSION_DATA_ANNOTATION: &str = "wheelhouse.rs/conversion-data";

/// Keeps `data` (the fields the version being converted to lacks) in `metadata`'s
/// [`CONVERSION_DATA_ANNOTATION`], replacing what was there. Call it when converting
/// from the hub to a spoke that cannot hold everything; [`unstash`] takes it back on
/// the way to the hub.
///
/// `data` must hold only what a client of the main resource may write anyway (spec
/// fields, never status). The annotation is metadata, which anyone who may update the
/// object writes, in any version; and kube-apiserver resets a main-resource write's
/// status from the stored object converted to the version written (which lacks what
/// was stashed), then converts the result for storage, unstashing whatever the client
/// left in the annotation. Leave status out of the older version and let the operator
/// compute it again.
///
/// Fails only when `data`'s `Serialize` implementation fails (a map with keys that
/// are not strings, say); plain structs never do.
pub fn stash<T: Serialize>(metadata: &mut ObjectMeta, data: &T) -> Result<(), serde_json::Error> {
    let json = serde_json::to_string(data)?;
    metadata
        .annotations
        .get_or_insert_with(Default::default)
        .insert(CONVERSION_DATA_ANNOTATION.to_owned(), json);
    Ok(())
}

/// Takes the data [`stash`] kept out of `metadata` (removing the annotation, and the
/// annotations altogether when it was the only one, so that a round trip gives back
/// the object it started from): None when there is none. An annotation that does not
/// decode as `T` is an error, and is left in place.
pub fn unstash<T: DeserializeOwned>(metadata: &mut ObjectMeta) -> Result<Option<T>, serde_json::Error> {
    let Some(annotations) = metadata.annotations.as_mut() else {
        return Ok(None);
    };
    let Some(json) = annotations.get(CONVERSION_DATA_ANNOTATION) else {
        return Ok(None);
    };
    let data = serde_json::from_str(json)?;
    annotations.remove(CONVERSION_DATA_ANNOTATION);
    if annotations.is_empty() {
        metadata.annotations = None;
    }
    Ok(Some(data))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn stashed_data_comes_back_and_leaves_the_metadata_as_it_was() {
        let mut metadata = ObjectMeta::default();
        stash(&mut metadata, &vec![1, 2]).unwrap();
        assert_eq!(
            metadata.annotations.as_ref().unwrap()[CONVERSION_DATA_ANNOTATION],
            "[1,2]"
        );
        assert_eq!(unstash::<Vec<i32>>(&mut metadata).unwrap(), Some(vec![1, 2]));
        assert_eq!(metadata, ObjectMeta::default(), "no empty annotations left behind");
        assert_eq!(unstash::<Vec<i32>>(&mut metadata).unwrap(), None);

        let others = BTreeMap::from([("team".to_owned(), "shop".to_owned())]);
        metadata.annotations = Some(others.clone());
        stash(&mut metadata, &true).unwrap();
        assert_eq!(unstash::<bool>(&mut metadata).unwrap(), Some(true));
        assert_eq!(metadata.annotations, Some(others), "other annotations stay");
    }

    #[test]
    fn a_stash_that_does_not_decode_is_an_error_and_stays() {
        let mut metadata = ObjectMeta::default();
        stash(&mut metadata, &"text").unwrap();
        assert!(unstash::<Vec<i32>>(&mut metadata).is_err());
        assert!(metadata.annotations.unwrap().contains_key(CONVERSION_DATA_ANNOTATION));
    }
}
