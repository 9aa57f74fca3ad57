//! A multi-cluster-aware reconciler: a WebApp on the hub cluster fans out into every
//! member of a fleet, and the members' progress is aggregated back into the hub
//! WebApp's status. The members' own WebApp controller (the single-cluster one, run as
//! a fleet controller) makes the Deployments; this one only copies and sums.

use std::sync::Arc;
use std::time::Duration;

use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams};
use serde_json::json;
use wheelhouse::controller::{Action, Context, Error, Reconciler};
use wheelhouse::manager::fleet::InProcess;

use crate::webapp::{Phase, WebApp, WebAppStatus};

/// The field manager of the copies in the members.
pub const FAN_OUT_MANAGER: &str = "webapp-fan-out";

/// The namespace of the copies in every member.
pub const MEMBER_NAMESPACE: &str = "default";

/// Copies each hub WebApp into every member of `members`, and writes back how many
/// members run it Ready and how many replicas are available across the fleet. A member
/// that cannot be reached is counted as not ready and does not hold up the others.
pub struct HubFanOut {
    members: InProcess,
}

impl HubFanOut {
    /// Fans out into the members `members` holds now, whichever they are at each pass.
    pub fn new(members: InProcess) -> Self {
        Self { members }
    }
}

impl Reconciler<WebApp> for HubFanOut {
    async fn reconcile(&self, webapp: Arc<WebApp>, context: &Context) -> Result<Action, Error> {
        let names = self.members.names();
        let copy = json!({
            "apiVersion": "example.com/v1",
            "kind": "WebApp",
            "metadata": {"name": webapp.name_any(), "labels": {"example.com/fanned-out-from": "hub"}},
            "spec": webapp.spec,
        });
        let (mut ready, mut available) = (0, 0);
        for name in &names {
            let Some(member) = self.members.get(name) else {
                continue;
            };
            let copies: Api<WebApp> = Api::namespaced(member.client().clone(), MEMBER_NAMESPACE);
            let applied = copies
                .patch(
                    &webapp.name_any(),
                    &PatchParams::apply(FAN_OUT_MANAGER).force(),
                    &Patch::Apply(&copy),
                )
                .await;
            match applied {
                Ok(stored) => {
                    let status = stored.status.unwrap_or_default();
                    available += status.available_replicas.unwrap_or(0);
                    ready += usize::from(status.phase == Some(Phase::Ready));
                }
                Err(error) => tracing::warn!(member = %name, error = %error, "fan-out: member not written"),
            }
        }
        let all_ready = ready == names.len() && !names.is_empty();
        let status = WebAppStatus {
            phase: Some(if all_ready { Phase::Ready } else { Phase::Waiting }),
            available_replicas: Some(available),
            conditions: None,
            observed_generation: webapp.metadata.generation,
        };
        context.patch_status(webapp.as_ref(), &status).await?;
        // Members' progress is read on the next pass: soon while it rolls out.
        Ok(Action::requeue_after(Duration::from_secs(if all_ready {
            30
        } else {
            1
        })))
    }
}
