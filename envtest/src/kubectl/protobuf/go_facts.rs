//! Facts about Kubernetes' Go types that its `.proto` files do not carry, generated from
//! the Go source of Kubernetes v1.37.0-beta.0 by `envtest/tools/protobuf-descriptors` (do not
//! edit; regenerate with the descriptors in `kubernetes.binpb`).

/// Fields whose zero value Go's JSON encoder leaves out (`omitempty`, not a pointer),
/// by proto message: go-to-protobuf writes them even when zero.
pub(crate) const OMIT_ZERO: &[(&str, &[&str])] = &[
    (
        "k8s.io.api.admission.v1.AdmissionRequest",
        &["subResource", "requestSubResource", "name", "namespace"],
    ),
    ("k8s.io.api.admission.v1.AdmissionResponse", &["patch"]),
    (
        "k8s.io.api.admission.v1beta1.AdmissionRequest",
        &["subResource", "requestSubResource", "name", "namespace"],
    ),
    ("k8s.io.api.admission.v1beta1.AdmissionResponse", &["patch"]),
    (
        "k8s.io.api.admissionregistration.v1.ApplyConfiguration",
        &["expression"],
    ),
    ("k8s.io.api.admissionregistration.v1.JSONPatch", &["expression"]),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicyBindingSpec",
        &["policyName"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicySpec",
        &["reinvocationPolicy"],
    ),
    ("k8s.io.api.admissionregistration.v1.ParamKind", &["apiVersion", "kind"]),
    ("k8s.io.api.admissionregistration.v1.ParamRef", &["name", "namespace"]),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec",
        &["policyName"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus",
        &["observedGeneration"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.Validation",
        &["message", "messageExpression"],
    ),
    ("k8s.io.api.admissionregistration.v1.WebhookClientConfig", &["caBundle"]),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ApplyConfiguration",
        &["expression"],
    ),
    ("k8s.io.api.admissionregistration.v1alpha1.JSONPatch", &["expression"]),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingSpec",
        &["policyName"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec",
        &["reinvocationPolicy"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ParamKind",
        &["apiVersion", "kind"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ParamRef",
        &["name", "namespace"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyBindingSpec",
        &["policyName"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyStatus",
        &["observedGeneration"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.Validation",
        &["message", "messageExpression"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ApplyConfiguration",
        &["expression"],
    ),
    ("k8s.io.api.admissionregistration.v1beta1.JSONPatch", &["expression"]),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBindingSpec",
        &["policyName"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicySpec",
        &["reinvocationPolicy"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ParamKind",
        &["apiVersion", "kind"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ParamRef",
        &["name", "namespace"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingSpec",
        &["policyName"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyStatus",
        &["observedGeneration"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.Validation",
        &["message", "messageExpression"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.WebhookClientConfig",
        &["caBundle"],
    ),
    ("k8s.io.api.apidiscovery.v2.APIVersionDiscovery", &["freshness"]),
    ("k8s.io.api.apidiscovery.v2beta1.APIVersionDiscovery", &["freshness"]),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.ServerStorageVersion",
        &["apiServerID", "encodingVersion"],
    ),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionCondition",
        &["observedGeneration", "message"],
    ),
    ("k8s.io.api.apps.v1.DaemonSetCondition", &["reason", "message"]),
    ("k8s.io.api.apps.v1.DaemonSetSpec", &["minReadySeconds"]),
    (
        "k8s.io.api.apps.v1.DaemonSetStatus",
        &[
            "observedGeneration",
            "updatedNumberScheduled",
            "numberAvailable",
            "numberUnavailable",
        ],
    ),
    ("k8s.io.api.apps.v1.DaemonSetUpdateStrategy", &["type"]),
    ("k8s.io.api.apps.v1.DeploymentCondition", &["reason", "message"]),
    ("k8s.io.api.apps.v1.DeploymentSpec", &["minReadySeconds", "paused"]),
    (
        "k8s.io.api.apps.v1.DeploymentStatus",
        &[
            "observedGeneration",
            "replicas",
            "updatedReplicas",
            "readyReplicas",
            "availableReplicas",
            "unavailableReplicas",
        ],
    ),
    ("k8s.io.api.apps.v1.DeploymentStrategy", &["type"]),
    ("k8s.io.api.apps.v1.ReplicaSetCondition", &["reason", "message"]),
    ("k8s.io.api.apps.v1.ReplicaSetSpec", &["minReadySeconds"]),
    (
        "k8s.io.api.apps.v1.ReplicaSetStatus",
        &[
            "fullyLabeledReplicas",
            "readyReplicas",
            "availableReplicas",
            "observedGeneration",
        ],
    ),
    ("k8s.io.api.apps.v1.StatefulSetCondition", &["reason", "message"]),
    (
        "k8s.io.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy",
        &["whenDeleted", "whenScaled"],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSetSpec",
        &["podManagementPolicy", "minReadySeconds"],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSetStatus",
        &[
            "observedGeneration",
            "readyReplicas",
            "currentReplicas",
            "updatedReplicas",
            "currentRevision",
            "updateRevision",
        ],
    ),
    ("k8s.io.api.apps.v1.StatefulSetUpdateStrategy", &["type"]),
    ("k8s.io.api.apps.v1beta1.DeploymentCondition", &["reason", "message"]),
    ("k8s.io.api.apps.v1beta1.DeploymentSpec", &["minReadySeconds", "paused"]),
    (
        "k8s.io.api.apps.v1beta1.DeploymentStatus",
        &[
            "observedGeneration",
            "replicas",
            "updatedReplicas",
            "readyReplicas",
            "availableReplicas",
            "unavailableReplicas",
        ],
    ),
    ("k8s.io.api.apps.v1beta1.DeploymentStrategy", &["type"]),
    ("k8s.io.api.apps.v1beta1.RollbackConfig", &["revision"]),
    ("k8s.io.api.apps.v1beta1.ScaleSpec", &["replicas"]),
    ("k8s.io.api.apps.v1beta1.ScaleStatus", &["targetSelector"]),
    ("k8s.io.api.apps.v1beta1.StatefulSetCondition", &["reason", "message"]),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy",
        &["whenDeleted", "whenScaled"],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetSpec",
        &["podManagementPolicy", "minReadySeconds"],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetStatus",
        &[
            "readyReplicas",
            "currentReplicas",
            "updatedReplicas",
            "currentRevision",
            "updateRevision",
        ],
    ),
    ("k8s.io.api.apps.v1beta1.StatefulSetUpdateStrategy", &["type"]),
    ("k8s.io.api.apps.v1beta2.DaemonSetCondition", &["reason", "message"]),
    ("k8s.io.api.apps.v1beta2.DaemonSetSpec", &["minReadySeconds"]),
    (
        "k8s.io.api.apps.v1beta2.DaemonSetStatus",
        &[
            "observedGeneration",
            "updatedNumberScheduled",
            "numberAvailable",
            "numberUnavailable",
        ],
    ),
    ("k8s.io.api.apps.v1beta2.DaemonSetUpdateStrategy", &["type"]),
    ("k8s.io.api.apps.v1beta2.DeploymentCondition", &["reason", "message"]),
    ("k8s.io.api.apps.v1beta2.DeploymentSpec", &["minReadySeconds", "paused"]),
    (
        "k8s.io.api.apps.v1beta2.DeploymentStatus",
        &[
            "observedGeneration",
            "replicas",
            "updatedReplicas",
            "readyReplicas",
            "availableReplicas",
            "unavailableReplicas",
        ],
    ),
    ("k8s.io.api.apps.v1beta2.DeploymentStrategy", &["type"]),
    ("k8s.io.api.apps.v1beta2.ReplicaSetCondition", &["reason", "message"]),
    ("k8s.io.api.apps.v1beta2.ReplicaSetSpec", &["minReadySeconds"]),
    (
        "k8s.io.api.apps.v1beta2.ReplicaSetStatus",
        &[
            "fullyLabeledReplicas",
            "readyReplicas",
            "availableReplicas",
            "observedGeneration",
        ],
    ),
    ("k8s.io.api.apps.v1beta2.ScaleSpec", &["replicas"]),
    ("k8s.io.api.apps.v1beta2.ScaleStatus", &["targetSelector"]),
    ("k8s.io.api.apps.v1beta2.StatefulSetCondition", &["reason", "message"]),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetPersistentVolumeClaimRetentionPolicy",
        &["whenDeleted", "whenScaled"],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetSpec",
        &["podManagementPolicy", "minReadySeconds"],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetStatus",
        &[
            "observedGeneration",
            "readyReplicas",
            "currentReplicas",
            "updatedReplicas",
            "currentRevision",
            "updateRevision",
        ],
    ),
    ("k8s.io.api.apps.v1beta2.StatefulSetUpdateStrategy", &["type"]),
    (
        "k8s.io.api.authentication.v1.BoundObjectReference",
        &["kind", "apiVersion", "name", "uID"],
    ),
    ("k8s.io.api.authentication.v1.TokenReviewSpec", &["token"]),
    (
        "k8s.io.api.authentication.v1.TokenReviewStatus",
        &["authenticated", "error"],
    ),
    ("k8s.io.api.authentication.v1.UserInfo", &["username", "uid"]),
    ("k8s.io.api.authentication.v1beta1.TokenReviewSpec", &["token"]),
    (
        "k8s.io.api.authentication.v1beta1.TokenReviewStatus",
        &["authenticated", "error"],
    ),
    ("k8s.io.api.authentication.v1beta1.UserInfo", &["username", "uid"]),
    ("k8s.io.api.authorization.v1.FieldSelectorAttributes", &["rawSelector"]),
    ("k8s.io.api.authorization.v1.LabelSelectorAttributes", &["rawSelector"]),
    ("k8s.io.api.authorization.v1.NonResourceAttributes", &["path", "verb"]),
    (
        "k8s.io.api.authorization.v1.ResourceAttributes",
        &[
            "namespace",
            "verb",
            "group",
            "version",
            "resource",
            "subresource",
            "name",
        ],
    ),
    ("k8s.io.api.authorization.v1.SelfSubjectRulesReviewSpec", &["namespace"]),
    ("k8s.io.api.authorization.v1.SubjectAccessReviewSpec", &["user", "uid"]),
    (
        "k8s.io.api.authorization.v1.SubjectAccessReviewStatus",
        &["denied", "reason", "evaluationError"],
    ),
    (
        "k8s.io.api.authorization.v1.SubjectRulesReviewStatus",
        &["evaluationError"],
    ),
    (
        "k8s.io.api.authorization.v1beta1.NonResourceAttributes",
        &["path", "verb"],
    ),
    (
        "k8s.io.api.authorization.v1beta1.ResourceAttributes",
        &[
            "namespace",
            "verb",
            "group",
            "version",
            "resource",
            "subresource",
            "name",
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SelfSubjectRulesReviewSpec",
        &["namespace"],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectAccessReviewSpec",
        &["user", "uid"],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectAccessReviewStatus",
        &["denied", "reason", "evaluationError"],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectRulesReviewStatus",
        &["evaluationError"],
    ),
    ("k8s.io.api.autoscaling.v1.CrossVersionObjectReference", &["apiVersion"]),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerCondition",
        &["reason", "message"],
    ),
    ("k8s.io.api.autoscaling.v1.ScaleSpec", &["replicas"]),
    ("k8s.io.api.autoscaling.v1.ScaleStatus", &["selector"]),
    ("k8s.io.api.autoscaling.v2.CrossVersionObjectReference", &["apiVersion"]),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerCondition",
        &["reason", "message"],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerStatus",
        &["currentReplicas"],
    ),
    ("k8s.io.api.batch.v1.CronJobSpec", &["concurrencyPolicy"]),
    ("k8s.io.api.batch.v1.JobCondition", &["reason", "message"]),
    (
        "k8s.io.api.batch.v1.JobStatus",
        &["active", "succeeded", "failed", "completedIndexes"],
    ),
    ("k8s.io.api.batch.v1beta1.CronJobSpec", &["concurrencyPolicy"]),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestCondition",
        &["reason", "message"],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestSpec",
        &["username", "uid"],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestStatus",
        &["certificate"],
    ),
    ("k8s.io.api.certificates.v1.ClusterTrustBundleSpec", &["signerName"]),
    (
        "k8s.io.api.certificates.v1alpha1.ClusterTrustBundleSpec",
        &["signerName"],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestCondition",
        &["reason", "message"],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestSpec",
        &["username", "uid"],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestStatus",
        &["certificate"],
    ),
    (
        "k8s.io.api.certificates.v1beta1.ClusterTrustBundleSpec",
        &["signerName"],
    ),
    (
        "k8s.io.api.certificates.v1beta1.PodCertificateRequestStatus",
        &["certificateChain"],
    ),
    (
        "k8s.io.api.coordination.v1alpha2.LeaseCandidateSpec",
        &["emulationVersion", "strategy"],
    ),
    (
        "k8s.io.api.coordination.v1beta1.LeaseCandidateSpec",
        &["emulationVersion", "strategy"],
    ),
    (
        "k8s.io.api.core.v1.AWSElasticBlockStoreVolumeSource",
        &["fsType", "partition", "readOnly"],
    ),
    ("k8s.io.api.core.v1.AzureFilePersistentVolumeSource", &["readOnly"]),
    ("k8s.io.api.core.v1.AzureFileVolumeSource", &["readOnly"]),
    ("k8s.io.api.core.v1.CSIPersistentVolumeSource", &["readOnly", "fsType"]),
    (
        "k8s.io.api.core.v1.CephFSPersistentVolumeSource",
        &["path", "user", "secretFile", "readOnly"],
    ),
    (
        "k8s.io.api.core.v1.CephFSVolumeSource",
        &["path", "user", "secretFile", "readOnly"],
    ),
    (
        "k8s.io.api.core.v1.CinderPersistentVolumeSource",
        &["fsType", "readOnly"],
    ),
    ("k8s.io.api.core.v1.CinderVolumeSource", &["fsType", "readOnly"]),
    ("k8s.io.api.core.v1.ComponentCondition", &["message", "error"]),
    (
        "k8s.io.api.core.v1.ConfigMapNodeConfigSource",
        &["uid", "resourceVersion"],
    ),
    (
        "k8s.io.api.core.v1.Container",
        &[
            "image",
            "workingDir",
            "terminationMessagePath",
            "terminationMessagePolicy",
            "imagePullPolicy",
            "stdin",
            "stdinOnce",
            "tty",
        ],
    ),
    ("k8s.io.api.core.v1.ContainerImage", &["sizeBytes"]),
    (
        "k8s.io.api.core.v1.ContainerPort",
        &["name", "hostPort", "protocol", "hostIP"],
    ),
    ("k8s.io.api.core.v1.ContainerRestartRule", &["action"]),
    ("k8s.io.api.core.v1.ContainerRestartRuleOnExitCodes", &["operator"]),
    (
        "k8s.io.api.core.v1.ContainerStateTerminated",
        &["signal", "reason", "message", "containerID"],
    ),
    ("k8s.io.api.core.v1.ContainerStateWaiting", &["reason", "message"]),
    ("k8s.io.api.core.v1.ContainerStatus", &["containerID"]),
    ("k8s.io.api.core.v1.EmptyDirVolumeSource", &["medium"]),
    ("k8s.io.api.core.v1.EndpointAddress", &["hostname"]),
    ("k8s.io.api.core.v1.EndpointPort", &["name", "protocol"]),
    ("k8s.io.api.core.v1.EnvFromSource", &["prefix"]),
    ("k8s.io.api.core.v1.EnvVar", &["value"]),
    ("k8s.io.api.core.v1.EphemeralContainer", &["targetContainerName"]),
    (
        "k8s.io.api.core.v1.EphemeralContainerCommon",
        &[
            "image",
            "workingDir",
            "terminationMessagePath",
            "terminationMessagePolicy",
            "imagePullPolicy",
            "stdin",
            "stdinOnce",
            "tty",
        ],
    ),
    (
        "k8s.io.api.core.v1.Event",
        &["reason", "message", "count", "type", "action"],
    ),
    ("k8s.io.api.core.v1.EventSeries", &["count"]),
    ("k8s.io.api.core.v1.EventSource", &["component", "host"]),
    ("k8s.io.api.core.v1.FCVolumeSource", &["fsType", "readOnly"]),
    ("k8s.io.api.core.v1.FlexPersistentVolumeSource", &["fsType", "readOnly"]),
    ("k8s.io.api.core.v1.FlexVolumeSource", &["fsType", "readOnly"]),
    (
        "k8s.io.api.core.v1.FlockerVolumeSource",
        &["datasetName", "datasetUUID"],
    ),
    (
        "k8s.io.api.core.v1.GCEPersistentDiskVolumeSource",
        &["fsType", "partition", "readOnly"],
    ),
    ("k8s.io.api.core.v1.GitRepoVolumeSource", &["revision", "directory"]),
    ("k8s.io.api.core.v1.GlusterfsPersistentVolumeSource", &["readOnly"]),
    ("k8s.io.api.core.v1.GlusterfsVolumeSource", &["readOnly"]),
    ("k8s.io.api.core.v1.HTTPGetAction", &["path", "host", "scheme"]),
    (
        "k8s.io.api.core.v1.ISCSIPersistentVolumeSource",
        &[
            "iscsiInterface",
            "fsType",
            "readOnly",
            "chapAuthDiscovery",
            "chapAuthSession",
        ],
    ),
    (
        "k8s.io.api.core.v1.ISCSIVolumeSource",
        &[
            "iscsiInterface",
            "fsType",
            "readOnly",
            "chapAuthDiscovery",
            "chapAuthSession",
        ],
    ),
    ("k8s.io.api.core.v1.ImageVolumeSource", &["reference", "pullPolicy"]),
    ("k8s.io.api.core.v1.ImageVolumeStatus", &["imageRef"]),
    ("k8s.io.api.core.v1.LoadBalancerIngress", &["ip", "hostname"]),
    ("k8s.io.api.core.v1.LocalObjectReference", &["name"]),
    (
        "k8s.io.api.core.v1.ModifyVolumeStatus",
        &["targetVolumeAttributesClassName"],
    ),
    ("k8s.io.api.core.v1.NFSVolumeSource", &["readOnly"]),
    ("k8s.io.api.core.v1.NamespaceCondition", &["reason", "message"]),
    ("k8s.io.api.core.v1.NamespaceStatus", &["phase"]),
    ("k8s.io.api.core.v1.NodeCondition", &["reason", "message"]),
    ("k8s.io.api.core.v1.NodeConfigStatus", &["error"]),
    ("k8s.io.api.core.v1.NodeProxyOptions", &["path"]),
    (
        "k8s.io.api.core.v1.NodeSpec",
        &["podCIDR", "providerID", "unschedulable", "externalID"],
    ),
    ("k8s.io.api.core.v1.NodeStatus", &["phase"]),
    ("k8s.io.api.core.v1.ObjectFieldSelector", &["apiVersion"]),
    (
        "k8s.io.api.core.v1.ObjectReference",
        &[
            "kind",
            "namespace",
            "name",
            "uid",
            "apiVersion",
            "resourceVersion",
            "fieldPath",
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimCondition",
        &["reason", "message"],
    ),
    ("k8s.io.api.core.v1.PersistentVolumeClaimSpec", &["volumeName"]),
    ("k8s.io.api.core.v1.PersistentVolumeClaimStatus", &["phase"]),
    ("k8s.io.api.core.v1.PersistentVolumeClaimVolumeSource", &["readOnly"]),
    (
        "k8s.io.api.core.v1.PersistentVolumeSpec",
        &["persistentVolumeReclaimPolicy", "storageClassName"],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeStatus",
        &["phase", "message", "reason"],
    ),
    ("k8s.io.api.core.v1.PhotonPersistentDiskVolumeSource", &["fsType"]),
    (
        "k8s.io.api.core.v1.PodAttachOptions",
        &["stdin", "stdout", "stderr", "tty", "container"],
    ),
    (
        "k8s.io.api.core.v1.PodCertificateProjection",
        &[
            "signerName",
            "keyType",
            "credentialBundlePath",
            "keyPath",
            "certificateChainPath",
        ],
    ),
    (
        "k8s.io.api.core.v1.PodCondition",
        &["observedGeneration", "reason", "message"],
    ),
    ("k8s.io.api.core.v1.PodDNSConfigOption", &["name"]),
    (
        "k8s.io.api.core.v1.PodExecOptions",
        &["stdin", "stdout", "stderr", "tty", "container"],
    ),
    (
        "k8s.io.api.core.v1.PodLogOptions",
        &[
            "container",
            "follow",
            "previous",
            "timestamps",
            "insecureSkipTLSVerifyBackend",
        ],
    ),
    ("k8s.io.api.core.v1.PodProxyOptions", &["path"]),
    (
        "k8s.io.api.core.v1.PodSpec",
        &[
            "restartPolicy",
            "dnsPolicy",
            "serviceAccountName",
            "serviceAccount",
            "nodeName",
            "hostNetwork",
            "hostPID",
            "hostIPC",
            "hostname",
            "subdomain",
            "schedulerName",
            "priorityClassName",
        ],
    ),
    (
        "k8s.io.api.core.v1.PodStatus",
        &[
            "observedGeneration",
            "phase",
            "message",
            "reason",
            "nominatedNodeName",
            "hostIP",
            "podIP",
            "qosClass",
            "resize",
        ],
    ),
    ("k8s.io.api.core.v1.PortworxVolumeSource", &["fsType", "readOnly"]),
    ("k8s.io.api.core.v1.PreferAvoidPodsEntry", &["reason", "message"]),
    (
        "k8s.io.api.core.v1.Probe",
        &[
            "initialDelaySeconds",
            "timeoutSeconds",
            "periodSeconds",
            "successThreshold",
            "failureThreshold",
        ],
    ),
    (
        "k8s.io.api.core.v1.QuobyteVolumeSource",
        &["readOnly", "user", "group", "tenant"],
    ),
    (
        "k8s.io.api.core.v1.RBDPersistentVolumeSource",
        &["fsType", "pool", "user", "keyring", "readOnly"],
    ),
    (
        "k8s.io.api.core.v1.RBDVolumeSource",
        &["fsType", "pool", "user", "keyring", "readOnly"],
    ),
    (
        "k8s.io.api.core.v1.ReplicationControllerCondition",
        &["reason", "message"],
    ),
    ("k8s.io.api.core.v1.ReplicationControllerSpec", &["minReadySeconds"]),
    (
        "k8s.io.api.core.v1.ReplicationControllerStatus",
        &[
            "fullyLabeledReplicas",
            "readyReplicas",
            "availableReplicas",
            "observedGeneration",
        ],
    ),
    ("k8s.io.api.core.v1.ResourceClaim", &["request"]),
    ("k8s.io.api.core.v1.ResourceFieldSelector", &["containerName"]),
    ("k8s.io.api.core.v1.ResourceHealth", &["health"]),
    ("k8s.io.api.core.v1.SELinuxOptions", &["user", "role", "type", "level"]),
    (
        "k8s.io.api.core.v1.ScaleIOPersistentVolumeSource",
        &[
            "sslEnabled",
            "protectionDomain",
            "storagePool",
            "storageMode",
            "volumeName",
            "fsType",
            "readOnly",
        ],
    ),
    (
        "k8s.io.api.core.v1.ScaleIOVolumeSource",
        &[
            "sslEnabled",
            "protectionDomain",
            "storagePool",
            "storageMode",
            "volumeName",
            "fsType",
            "readOnly",
        ],
    ),
    ("k8s.io.api.core.v1.Secret", &["type"]),
    ("k8s.io.api.core.v1.SecretReference", &["name", "namespace"]),
    ("k8s.io.api.core.v1.SecretVolumeSource", &["secretName"]),
    ("k8s.io.api.core.v1.ServiceAccountTokenProjection", &["audience"]),
    ("k8s.io.api.core.v1.ServicePort", &["name", "protocol", "nodePort"]),
    ("k8s.io.api.core.v1.ServiceProxyOptions", &["path"]),
    (
        "k8s.io.api.core.v1.ServiceSpec",
        &[
            "clusterIP",
            "type",
            "sessionAffinity",
            "loadBalancerIP",
            "externalName",
            "externalTrafficPolicy",
            "healthCheckNodePort",
            "publishNotReadyAddresses",
        ],
    ),
    (
        "k8s.io.api.core.v1.StorageOSPersistentVolumeSource",
        &["volumeName", "volumeNamespace", "fsType", "readOnly"],
    ),
    (
        "k8s.io.api.core.v1.StorageOSVolumeSource",
        &["volumeName", "volumeNamespace", "fsType", "readOnly"],
    ),
    ("k8s.io.api.core.v1.TCPSocketAction", &["host"]),
    ("k8s.io.api.core.v1.Taint", &["value"]),
    ("k8s.io.api.core.v1.Toleration", &["key", "operator", "value", "effect"]),
    (
        "k8s.io.api.core.v1.VolumeMount",
        &["readOnly", "subPath", "subPathExpr"],
    ),
    ("k8s.io.api.core.v1.VolumeMountStatus", &["readOnly"]),
    (
        "k8s.io.api.core.v1.VsphereVirtualDiskVolumeSource",
        &["fsType", "storagePolicyName", "storagePolicyID"],
    ),
    (
        "k8s.io.api.events.v1.Event",
        &[
            "reportingController",
            "reportingInstance",
            "action",
            "reason",
            "note",
            "type",
            "deprecatedCount",
        ],
    ),
    (
        "k8s.io.api.events.v1beta1.Event",
        &[
            "reportingController",
            "reportingInstance",
            "action",
            "reason",
            "note",
            "type",
            "deprecatedCount",
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetCondition",
        &["reason", "message"],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetSpec",
        &["minReadySeconds", "templateGeneration"],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetStatus",
        &[
            "observedGeneration",
            "updatedNumberScheduled",
            "numberAvailable",
            "numberUnavailable",
        ],
    ),
    ("k8s.io.api.extensions.v1beta1.DaemonSetUpdateStrategy", &["type"]),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentCondition",
        &["reason", "message"],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentSpec",
        &["minReadySeconds", "paused"],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentStatus",
        &[
            "observedGeneration",
            "replicas",
            "updatedReplicas",
            "readyReplicas",
            "availableReplicas",
            "unavailableReplicas",
        ],
    ),
    ("k8s.io.api.extensions.v1beta1.DeploymentStrategy", &["type"]),
    ("k8s.io.api.extensions.v1beta1.HTTPIngressPath", &["path"]),
    ("k8s.io.api.extensions.v1beta1.IngressBackend", &["serviceName"]),
    (
        "k8s.io.api.extensions.v1beta1.IngressLoadBalancerIngress",
        &["ip", "hostname"],
    ),
    ("k8s.io.api.extensions.v1beta1.IngressRule", &["host"]),
    ("k8s.io.api.extensions.v1beta1.IngressTLS", &["secretName"]),
    (
        "k8s.io.api.extensions.v1beta1.ReplicaSetCondition",
        &["reason", "message"],
    ),
    ("k8s.io.api.extensions.v1beta1.ReplicaSetSpec", &["minReadySeconds"]),
    (
        "k8s.io.api.extensions.v1beta1.ReplicaSetStatus",
        &[
            "fullyLabeledReplicas",
            "readyReplicas",
            "availableReplicas",
            "observedGeneration",
        ],
    ),
    ("k8s.io.api.extensions.v1beta1.RollbackConfig", &["revision"]),
    ("k8s.io.api.extensions.v1beta1.ScaleSpec", &["replicas"]),
    ("k8s.io.api.extensions.v1beta1.ScaleStatus", &["targetSelector"]),
    (
        "k8s.io.api.flowcontrol.v1.FlowSchemaCondition",
        &["type", "status", "reason", "message"],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationCondition",
        &["type", "status", "reason", "message"],
    ),
    ("k8s.io.api.flowcontrol.v1.ResourcePolicyRule", &["clusterScope"]),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowSchemaCondition",
        &["type", "status", "reason", "message"],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationCondition",
        &["type", "status", "reason", "message"],
    ),
    ("k8s.io.api.flowcontrol.v1beta1.ResourcePolicyRule", &["clusterScope"]),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowSchemaCondition",
        &["type", "status", "reason", "message"],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationCondition",
        &["type", "status", "reason", "message"],
    ),
    ("k8s.io.api.flowcontrol.v1beta2.ResourcePolicyRule", &["clusterScope"]),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowSchemaCondition",
        &["type", "status", "reason", "message"],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationCondition",
        &["type", "status", "reason", "message"],
    ),
    ("k8s.io.api.flowcontrol.v1beta3.ResourcePolicyRule", &["clusterScope"]),
    ("k8s.io.api.imagepolicy.v1alpha1.ImageReviewContainerSpec", &["image"]),
    ("k8s.io.api.imagepolicy.v1alpha1.ImageReviewSpec", &["namespace"]),
    ("k8s.io.api.imagepolicy.v1alpha1.ImageReviewStatus", &["reason"]),
    ("k8s.io.api.networking.v1.HTTPIngressPath", &["path"]),
    ("k8s.io.api.networking.v1.IngressClassSpec", &["controller"]),
    (
        "k8s.io.api.networking.v1.IngressLoadBalancerIngress",
        &["ip", "hostname"],
    ),
    ("k8s.io.api.networking.v1.IngressRule", &["host"]),
    ("k8s.io.api.networking.v1.IngressTLS", &["secretName"]),
    (
        "k8s.io.api.networking.v1.ParentReference",
        &["group", "resource", "namespace", "name"],
    ),
    ("k8s.io.api.networking.v1.ServiceBackendPort", &["name", "number"]),
    ("k8s.io.api.networking.v1beta1.HTTPIngressPath", &["path"]),
    ("k8s.io.api.networking.v1beta1.IngressBackend", &["serviceName"]),
    ("k8s.io.api.networking.v1beta1.IngressClassSpec", &["controller"]),
    (
        "k8s.io.api.networking.v1beta1.IngressLoadBalancerIngress",
        &["ip", "hostname"],
    ),
    ("k8s.io.api.networking.v1beta1.IngressRule", &["host"]),
    ("k8s.io.api.networking.v1beta1.IngressTLS", &["secretName"]),
    (
        "k8s.io.api.networking.v1beta1.ParentReference",
        &["group", "resource", "namespace", "name"],
    ),
    (
        "k8s.io.api.policy.v1.PodDisruptionBudgetStatus",
        &["observedGeneration"],
    ),
    (
        "k8s.io.api.policy.v1beta1.PodDisruptionBudgetStatus",
        &["observedGeneration"],
    ),
    ("k8s.io.api.rbac.v1.Subject", &["apiGroup", "namespace"]),
    ("k8s.io.api.rbac.v1alpha1.Subject", &["apiVersion", "namespace"]),
    ("k8s.io.api.rbac.v1beta1.Subject", &["apiGroup", "namespace"]),
    ("k8s.io.api.resource.v1.DeviceSubRequest", &["allocationMode", "count"]),
    ("k8s.io.api.resource.v1.DeviceTaint", &["value"]),
    (
        "k8s.io.api.resource.v1.DeviceToleration",
        &["key", "operator", "value", "effect"],
    ),
    (
        "k8s.io.api.resource.v1.ExactDeviceRequest",
        &["allocationMode", "count"],
    ),
    (
        "k8s.io.api.resource.v1.NetworkDeviceData",
        &["interfaceName", "hardwareAddress"],
    ),
    ("k8s.io.api.resource.v1.ResourceClaimConsumerReference", &["apiGroup"]),
    ("k8s.io.api.resource.v1alpha3.DeviceTaint", &["value"]),
    ("k8s.io.api.resource.v1alpha3.PoolStatus", &["driver", "poolName"]),
    (
        "k8s.io.api.resource.v1beta1.DeviceRequest",
        &["allocationMode", "count"],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceSubRequest",
        &["allocationMode", "count"],
    ),
    ("k8s.io.api.resource.v1beta1.DeviceTaint", &["value"]),
    (
        "k8s.io.api.resource.v1beta1.DeviceToleration",
        &["key", "operator", "value", "effect"],
    ),
    (
        "k8s.io.api.resource.v1beta1.NetworkDeviceData",
        &["interfaceName", "hardwareAddress"],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimConsumerReference",
        &["apiGroup"],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceSliceSpec",
        &["nodeName", "allNodes"],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceSubRequest",
        &["allocationMode", "count"],
    ),
    ("k8s.io.api.resource.v1beta2.DeviceTaint", &["value"]),
    (
        "k8s.io.api.resource.v1beta2.DeviceToleration",
        &["key", "operator", "value", "effect"],
    ),
    (
        "k8s.io.api.resource.v1beta2.ExactDeviceRequest",
        &["allocationMode", "count"],
    ),
    (
        "k8s.io.api.resource.v1beta2.NetworkDeviceData",
        &["interfaceName", "hardwareAddress"],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimConsumerReference",
        &["apiGroup"],
    ),
    (
        "k8s.io.api.scheduling.v1.PriorityClass",
        &["globalDefault", "description"],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupSpec",
        &["priorityClassName"],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupTemplate",
        &["priorityClassName"],
    ),
    ("k8s.io.api.scheduling.v1alpha3.PodGroupSpec", &["priorityClassName"]),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupTemplate",
        &["priorityClassName"],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.TypedLocalObjectReference",
        &["apiGroup"],
    ),
    (
        "k8s.io.api.scheduling.v1beta1.PriorityClass",
        &["globalDefault", "description"],
    ),
    ("k8s.io.api.storage.v1.VolumeError", &["message"]),
    ("k8s.io.api.storage.v1alpha1.VolumeError", &["message"]),
    ("k8s.io.api.storage.v1beta1.VolumeError", &["message"]),
    (
        "k8s.io.api.storagemigration.v1.StorageVersionMigrationStatus",
        &["resourceVersion"],
    ),
    (
        "k8s.io.api.storagemigration.v1beta1.StorageVersionMigrationStatus",
        &["resourceVersion"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition",
        &["format", "description", "priority"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition",
        &["reason", "message", "observedGeneration"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames",
        &["singular", "listKind"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec",
        &["preserveUnknownFields"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus",
        &["observedGeneration"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion",
        &["deprecated"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation",
        &["description", "url"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        &[
            "id",
            "schema",
            "description",
            "type",
            "format",
            "title",
            "exclusiveMaximum",
            "exclusiveMinimum",
            "pattern",
            "uniqueItems",
            "nullable",
            "xKubernetesEmbeddedResource",
            "xKubernetesIntOrString",
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ValidationRule",
        &["message", "messageExpression", "fieldPath"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig",
        &["caBundle"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceColumnDefinition",
        &["format", "description", "priority"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionCondition",
        &["reason", "message", "observedGeneration"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionNames",
        &["singular", "listKind"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionSpec",
        &["version"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionStatus",
        &["observedGeneration"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionVersion",
        &["deprecated"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ExternalDocumentation",
        &["description", "url"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        &[
            "id",
            "schema",
            "description",
            "type",
            "format",
            "title",
            "exclusiveMaximum",
            "exclusiveMinimum",
            "pattern",
            "uniqueItems",
            "nullable",
            "xKubernetesEmbeddedResource",
            "xKubernetesIntOrString",
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ValidationRule",
        &["message", "messageExpression", "fieldPath"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.WebhookClientConfig",
        &["caBundle"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIResource",
        &["group", "version", "storageVersionHash"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.Condition",
        &["observedGeneration"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.CreateOptions",
        &["fieldManager", "fieldValidation"],
    ),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.GetOptions", &["resourceVersion"]),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",
        &["selfLink", "resourceVersion", "continue"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ListOptions",
        &[
            "labelSelector",
            "fieldSelector",
            "watch",
            "allowWatchBookmarks",
            "resourceVersion",
            "resourceVersionMatch",
            "limit",
            "continue",
            "shardSelector",
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
        &["manager", "operation", "apiVersion", "fieldsType", "subresource"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        &[
            "name",
            "generateName",
            "namespace",
            "selfLink",
            "uid",
            "resourceVersion",
            "generation",
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.PatchOptions",
        &["fieldManager", "fieldValidation"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
        &["status", "message", "reason", "code"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.StatusCause",
        &["reason", "message", "field"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.StatusDetails",
        &["name", "group", "kind", "uid", "retryAfterSeconds"],
    ),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.TableOptions", &["includeObject"]),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.TypeMeta", &["kind", "apiVersion"]),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.UpdateOptions",
        &["fieldManager", "fieldValidation"],
    ),
    ("k8s.io.apimachinery.pkg.runtime.TypeMeta", &["apiVersion", "kind"]),
];

/// Slices and maps Go's JSON encoder leaves out when empty (`omitempty`), by proto
/// message, by JSON name.
pub(crate) const OMIT_EMPTY: &[(&str, &[&str])] = &[
    (
        "k8s.io.api.admission.v1.AdmissionResponse",
        &["auditAnnotations", "warnings"],
    ),
    (
        "k8s.io.api.admission.v1beta1.AdmissionResponse",
        &["auditAnnotations", "warnings"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MatchResources",
        &["resourceRules", "excludeResourceRules"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicySpec",
        &["variables", "mutations", "matchConditions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingWebhook",
        &["rules", "matchConditions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingWebhookConfiguration",
        &["webhooks"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.NamedRuleWithOperations",
        &["resourceNames", "operations"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.Rule",
        &["apiGroups", "apiVersions", "resources"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.RuleWithOperations",
        &["operations", "apiGroups", "apiVersions", "resources"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.TypeChecking",
        &["expressionWarnings"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec",
        &["validationActions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicySpec",
        &["validations", "auditAnnotations", "matchConditions", "variables"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus",
        &["conditions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingWebhook",
        &["rules", "matchConditions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration",
        &["webhooks"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MatchResources",
        &["resourceRules", "excludeResourceRules"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec",
        &["variables", "mutations", "matchConditions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.NamedRuleWithOperations",
        &["resourceNames"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.TypeChecking",
        &["expressionWarnings"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyBindingSpec",
        &["validationActions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicySpec",
        &["validations", "auditAnnotations", "matchConditions", "variables"],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyStatus",
        &["conditions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MatchResources",
        &["resourceRules", "excludeResourceRules"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicySpec",
        &["variables", "mutations", "matchConditions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingWebhook",
        &["rules", "admissionReviewVersions", "matchConditions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingWebhookConfiguration",
        &["webhooks"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.NamedRuleWithOperations",
        &["resourceNames"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.TypeChecking",
        &["expressionWarnings"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingSpec",
        &["validationActions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicySpec",
        &["validations", "auditAnnotations", "matchConditions", "variables"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyStatus",
        &["conditions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingWebhook",
        &["rules", "admissionReviewVersions", "matchConditions"],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingWebhookConfiguration",
        &["webhooks"],
    ),
    ("k8s.io.api.apidiscovery.v2.APIGroupDiscovery", &["versions"]),
    (
        "k8s.io.api.apidiscovery.v2.APIResourceDiscovery",
        &["shortNames", "categories", "subresources"],
    ),
    ("k8s.io.api.apidiscovery.v2.APISubresourceDiscovery", &["acceptedTypes"]),
    ("k8s.io.api.apidiscovery.v2.APIVersionDiscovery", &["resources"]),
    ("k8s.io.api.apidiscovery.v2beta1.APIGroupDiscovery", &["versions"]),
    (
        "k8s.io.api.apidiscovery.v2beta1.APIResourceDiscovery",
        &["shortNames", "categories", "subresources"],
    ),
    (
        "k8s.io.api.apidiscovery.v2beta1.APISubresourceDiscovery",
        &["acceptedTypes"],
    ),
    ("k8s.io.api.apidiscovery.v2beta1.APIVersionDiscovery", &["resources"]),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.ServerStorageVersion",
        &["decodableVersions", "servedVersions"],
    ),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionStatus",
        &["storageVersions", "conditions"],
    ),
    ("k8s.io.api.apps.v1.DaemonSetStatus", &["conditions"]),
    ("k8s.io.api.apps.v1.DeploymentStatus", &["conditions"]),
    ("k8s.io.api.apps.v1.ReplicaSetStatus", &["conditions"]),
    ("k8s.io.api.apps.v1.StatefulSetSpec", &["volumeClaimTemplates"]),
    ("k8s.io.api.apps.v1.StatefulSetStatus", &["conditions"]),
    ("k8s.io.api.apps.v1beta1.DeploymentRollback", &["updatedAnnotations"]),
    ("k8s.io.api.apps.v1beta1.DeploymentStatus", &["conditions"]),
    ("k8s.io.api.apps.v1beta1.ScaleStatus", &["selector"]),
    ("k8s.io.api.apps.v1beta1.StatefulSetSpec", &["volumeClaimTemplates"]),
    ("k8s.io.api.apps.v1beta1.StatefulSetStatus", &["conditions"]),
    ("k8s.io.api.apps.v1beta2.DaemonSetStatus", &["conditions"]),
    ("k8s.io.api.apps.v1beta2.DeploymentStatus", &["conditions"]),
    ("k8s.io.api.apps.v1beta2.ReplicaSetStatus", &["conditions"]),
    ("k8s.io.api.apps.v1beta2.ScaleStatus", &["selector"]),
    ("k8s.io.api.apps.v1beta2.StatefulSetSpec", &["volumeClaimTemplates"]),
    ("k8s.io.api.apps.v1beta2.StatefulSetStatus", &["conditions"]),
    ("k8s.io.api.authentication.v1.TokenReviewSpec", &["audiences"]),
    ("k8s.io.api.authentication.v1.TokenReviewStatus", &["audiences"]),
    ("k8s.io.api.authentication.v1.UserInfo", &["groups", "extra"]),
    ("k8s.io.api.authentication.v1beta1.TokenReviewSpec", &["audiences"]),
    ("k8s.io.api.authentication.v1beta1.TokenReviewStatus", &["audiences"]),
    ("k8s.io.api.authentication.v1beta1.UserInfo", &["groups", "extra"]),
    ("k8s.io.api.authorization.v1.FieldSelectorAttributes", &["requirements"]),
    ("k8s.io.api.authorization.v1.LabelSelectorAttributes", &["requirements"]),
    ("k8s.io.api.authorization.v1.NonResourceRule", &["nonResourceURLs"]),
    (
        "k8s.io.api.authorization.v1.ResourceRule",
        &["apiGroups", "resources", "resourceNames"],
    ),
    (
        "k8s.io.api.authorization.v1.SubjectAccessReviewSpec",
        &["groups", "extra"],
    ),
    ("k8s.io.api.authorization.v1beta1.NonResourceRule", &["nonResourceURLs"]),
    (
        "k8s.io.api.authorization.v1beta1.ResourceRule",
        &["apiGroups", "resources", "resourceNames"],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectAccessReviewSpec",
        &["group", "extra"],
    ),
    ("k8s.io.api.autoscaling.v2.HPAScalingRules", &["policies"]),
    ("k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerSpec", &["metrics"]),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerStatus",
        &["conditions"],
    ),
    ("k8s.io.api.batch.v1.CronJobStatus", &["active"]),
    ("k8s.io.api.batch.v1.JobStatus", &["conditions"]),
    ("k8s.io.api.batch.v1.PodFailurePolicyRule", &["onPodConditions"]),
    ("k8s.io.api.batch.v1.UncountedTerminatedPods", &["succeeded", "failed"]),
    ("k8s.io.api.batch.v1beta1.CronJobStatus", &["active"]),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestSpec",
        &["usages", "groups", "extra"],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestStatus",
        &["conditions"],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestSpec",
        &["usages", "groups", "extra"],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestStatus",
        &["conditions"],
    ),
    (
        "k8s.io.api.certificates.v1beta1.PodCertificateRequestSpec",
        &["unverifiedUserAnnotations"],
    ),
    (
        "k8s.io.api.certificates.v1beta1.PodCertificateRequestStatus",
        &["conditions"],
    ),
    ("k8s.io.api.core.v1.AvoidPods", &["preferAvoidPods"]),
    ("k8s.io.api.core.v1.CSIPersistentVolumeSource", &["volumeAttributes"]),
    ("k8s.io.api.core.v1.CSIVolumeSource", &["volumeAttributes"]),
    ("k8s.io.api.core.v1.Capabilities", &["add", "drop"]),
    ("k8s.io.api.core.v1.ComponentStatus", &["conditions"]),
    ("k8s.io.api.core.v1.ConfigMap", &["data", "binaryData"]),
    ("k8s.io.api.core.v1.ConfigMapProjection", &["items"]),
    ("k8s.io.api.core.v1.ConfigMapVolumeSource", &["items"]),
    (
        "k8s.io.api.core.v1.Container",
        &[
            "command",
            "args",
            "ports",
            "envFrom",
            "env",
            "resizePolicy",
            "restartPolicyRules",
            "volumeMounts",
            "volumeDevices",
        ],
    ),
    ("k8s.io.api.core.v1.ContainerRestartRuleOnExitCodes", &["values"]),
    (
        "k8s.io.api.core.v1.ContainerStatus",
        &["allocatedResources", "volumeMounts", "allocatedResourcesStatus"],
    ),
    ("k8s.io.api.core.v1.DownwardAPIProjection", &["items"]),
    ("k8s.io.api.core.v1.DownwardAPIVolumeSource", &["items"]),
    (
        "k8s.io.api.core.v1.EndpointSubset",
        &["addresses", "notReadyAddresses", "ports"],
    ),
    ("k8s.io.api.core.v1.Endpoints", &["subsets"]),
    (
        "k8s.io.api.core.v1.EphemeralContainerCommon",
        &[
            "command",
            "args",
            "ports",
            "envFrom",
            "env",
            "resizePolicy",
            "restartPolicyRules",
            "volumeMounts",
            "volumeDevices",
        ],
    ),
    ("k8s.io.api.core.v1.ExecAction", &["command"]),
    ("k8s.io.api.core.v1.FCVolumeSource", &["targetWWNs", "wwids"]),
    ("k8s.io.api.core.v1.FlexPersistentVolumeSource", &["options"]),
    ("k8s.io.api.core.v1.FlexVolumeSource", &["options"]),
    ("k8s.io.api.core.v1.HTTPGetAction", &["httpHeaders"]),
    ("k8s.io.api.core.v1.HostAlias", &["hostnames"]),
    ("k8s.io.api.core.v1.ISCSIPersistentVolumeSource", &["portals"]),
    ("k8s.io.api.core.v1.ISCSIVolumeSource", &["portals"]),
    (
        "k8s.io.api.core.v1.LimitRangeItem",
        &["max", "min", "default", "defaultRequest", "maxLimitRequestRatio"],
    ),
    ("k8s.io.api.core.v1.LinuxContainerUser", &["supplementalGroups"]),
    ("k8s.io.api.core.v1.LoadBalancerIngress", &["ports"]),
    ("k8s.io.api.core.v1.LoadBalancerStatus", &["ingress"]),
    ("k8s.io.api.core.v1.NamespaceSpec", &["finalizers"]),
    ("k8s.io.api.core.v1.NamespaceStatus", &["conditions"]),
    (
        "k8s.io.api.core.v1.NodeAffinity",
        &["preferredDuringSchedulingIgnoredDuringExecution"],
    ),
    ("k8s.io.api.core.v1.NodeAllocatableResourceClaimStatus", &["containers"]),
    (
        "k8s.io.api.core.v1.NodePodPreemptionPolicy",
        &["disableResizePreemption"],
    ),
    ("k8s.io.api.core.v1.NodeSelectorRequirement", &["values"]),
    (
        "k8s.io.api.core.v1.NodeSelectorTerm",
        &["matchExpressions", "matchFields"],
    ),
    ("k8s.io.api.core.v1.NodeSpec", &["podCIDRs", "taints"]),
    (
        "k8s.io.api.core.v1.NodeStatus",
        &[
            "capacity",
            "allocatable",
            "conditions",
            "addresses",
            "images",
            "volumesInUse",
            "volumesAttached",
            "runtimeHandlers",
            "declaredFeatures",
        ],
    ),
    ("k8s.io.api.core.v1.PersistentVolumeClaimSpec", &["accessModes"]),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimStatus",
        &[
            "accessModes",
            "capacity",
            "conditions",
            "allocatedResources",
            "allocatedResourceStatuses",
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeSpec",
        &["capacity", "accessModes", "mountOptions"],
    ),
    (
        "k8s.io.api.core.v1.PodAffinity",
        &[
            "requiredDuringSchedulingIgnoredDuringExecution",
            "preferredDuringSchedulingIgnoredDuringExecution",
        ],
    ),
    (
        "k8s.io.api.core.v1.PodAffinityTerm",
        &["namespaces", "matchLabelKeys", "mismatchLabelKeys"],
    ),
    (
        "k8s.io.api.core.v1.PodAntiAffinity",
        &[
            "requiredDuringSchedulingIgnoredDuringExecution",
            "preferredDuringSchedulingIgnoredDuringExecution",
        ],
    ),
    ("k8s.io.api.core.v1.PodCertificateProjection", &["userAnnotations"]),
    (
        "k8s.io.api.core.v1.PodDNSConfig",
        &["nameservers", "searches", "options"],
    ),
    ("k8s.io.api.core.v1.PodPortForwardOptions", &["ports"]),
    (
        "k8s.io.api.core.v1.PodSecurityContext",
        &["supplementalGroups", "sysctls"],
    ),
    (
        "k8s.io.api.core.v1.PodSpec",
        &[
            "volumes",
            "initContainers",
            "ephemeralContainers",
            "nodeSelector",
            "imagePullSecrets",
            "tolerations",
            "hostAliases",
            "readinessGates",
            "overhead",
            "topologySpreadConstraints",
            "schedulingGates",
            "resourceClaims",
        ],
    ),
    (
        "k8s.io.api.core.v1.PodStatus",
        &[
            "conditions",
            "hostIPs",
            "podIPs",
            "initContainerStatuses",
            "containerStatuses",
            "ephemeralContainerStatuses",
            "resourceClaimStatuses",
            "allocatedResources",
            "nodeAllocatableResourceClaimStatuses",
        ],
    ),
    ("k8s.io.api.core.v1.ReplicationControllerSpec", &["selector"]),
    ("k8s.io.api.core.v1.ReplicationControllerStatus", &["conditions"]),
    ("k8s.io.api.core.v1.ResourceQuotaSpec", &["hard", "scopes"]),
    ("k8s.io.api.core.v1.ResourceQuotaStatus", &["hard", "used"]),
    (
        "k8s.io.api.core.v1.ResourceRequirements",
        &["limits", "requests", "claims"],
    ),
    ("k8s.io.api.core.v1.ResourceStatus", &["resources"]),
    ("k8s.io.api.core.v1.ScopeSelector", &["matchExpressions"]),
    ("k8s.io.api.core.v1.ScopedResourceSelectorRequirement", &["values"]),
    ("k8s.io.api.core.v1.Secret", &["data", "stringData"]),
    ("k8s.io.api.core.v1.SecretProjection", &["items"]),
    ("k8s.io.api.core.v1.SecretVolumeSource", &["items"]),
    ("k8s.io.api.core.v1.ServiceAccount", &["secrets", "imagePullSecrets"]),
    (
        "k8s.io.api.core.v1.ServiceSpec",
        &[
            "ports",
            "selector",
            "clusterIPs",
            "externalIPs",
            "loadBalancerSourceRanges",
            "ipFamilies",
        ],
    ),
    ("k8s.io.api.core.v1.ServiceStatus", &["conditions"]),
    ("k8s.io.api.core.v1.TopologySelectorTerm", &["matchLabelExpressions"]),
    ("k8s.io.api.core.v1.TopologySpreadConstraint", &["matchLabelKeys"]),
    ("k8s.io.api.core.v1.VolumeResourceRequirements", &["limits", "requests"]),
    ("k8s.io.api.discovery.v1.Endpoint", &["deprecatedTopology"]),
    ("k8s.io.api.discovery.v1.EndpointHints", &["forZones", "forNodes"]),
    ("k8s.io.api.discovery.v1beta1.Endpoint", &["topology"]),
    ("k8s.io.api.discovery.v1beta1.EndpointHints", &["forZones", "forNodes"]),
    ("k8s.io.api.extensions.v1beta1.DaemonSetStatus", &["conditions"]),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentRollback",
        &["updatedAnnotations"],
    ),
    ("k8s.io.api.extensions.v1beta1.DeploymentStatus", &["conditions"]),
    ("k8s.io.api.extensions.v1beta1.IPBlock", &["except"]),
    ("k8s.io.api.extensions.v1beta1.IngressLoadBalancerIngress", &["ports"]),
    ("k8s.io.api.extensions.v1beta1.IngressLoadBalancerStatus", &["ingress"]),
    ("k8s.io.api.extensions.v1beta1.IngressSpec", &["tls", "rules"]),
    ("k8s.io.api.extensions.v1beta1.IngressTLS", &["hosts"]),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicyEgressRule",
        &["ports", "to"],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicyIngressRule",
        &["ports", "from"],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicySpec",
        &["ingress", "egress", "policyTypes"],
    ),
    ("k8s.io.api.extensions.v1beta1.ReplicaSetStatus", &["conditions"]),
    ("k8s.io.api.extensions.v1beta1.ScaleStatus", &["selector"]),
    ("k8s.io.api.flowcontrol.v1.FlowSchemaSpec", &["rules"]),
    ("k8s.io.api.flowcontrol.v1.FlowSchemaStatus", &["conditions"]),
    (
        "k8s.io.api.flowcontrol.v1.PolicyRulesWithSubjects",
        &["resourceRules", "nonResourceRules"],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationStatus",
        &["conditions"],
    ),
    ("k8s.io.api.flowcontrol.v1beta1.FlowSchemaSpec", &["rules"]),
    ("k8s.io.api.flowcontrol.v1beta1.FlowSchemaStatus", &["conditions"]),
    (
        "k8s.io.api.flowcontrol.v1beta1.PolicyRulesWithSubjects",
        &["resourceRules", "nonResourceRules"],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationStatus",
        &["conditions"],
    ),
    ("k8s.io.api.flowcontrol.v1beta2.FlowSchemaSpec", &["rules"]),
    ("k8s.io.api.flowcontrol.v1beta2.FlowSchemaStatus", &["conditions"]),
    (
        "k8s.io.api.flowcontrol.v1beta2.PolicyRulesWithSubjects",
        &["resourceRules", "nonResourceRules"],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationStatus",
        &["conditions"],
    ),
    ("k8s.io.api.flowcontrol.v1beta3.FlowSchemaSpec", &["rules"]),
    ("k8s.io.api.flowcontrol.v1beta3.FlowSchemaStatus", &["conditions"]),
    (
        "k8s.io.api.flowcontrol.v1beta3.PolicyRulesWithSubjects",
        &["resourceRules", "nonResourceRules"],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationStatus",
        &["conditions"],
    ),
    (
        "k8s.io.api.imagepolicy.v1alpha1.ImageReviewSpec",
        &["containers", "annotations"],
    ),
    (
        "k8s.io.api.imagepolicy.v1alpha1.ImageReviewStatus",
        &["auditAnnotations"],
    ),
    ("k8s.io.api.networking.v1.IPBlock", &["except"]),
    ("k8s.io.api.networking.v1.IngressLoadBalancerIngress", &["ports"]),
    ("k8s.io.api.networking.v1.IngressLoadBalancerStatus", &["ingress"]),
    ("k8s.io.api.networking.v1.IngressSpec", &["tls", "rules"]),
    ("k8s.io.api.networking.v1.IngressTLS", &["hosts"]),
    ("k8s.io.api.networking.v1.NetworkPolicyEgressRule", &["ports", "to"]),
    ("k8s.io.api.networking.v1.NetworkPolicyIngressRule", &["ports", "from"]),
    (
        "k8s.io.api.networking.v1.NetworkPolicySpec",
        &["ingress", "egress", "policyTypes"],
    ),
    ("k8s.io.api.networking.v1.ServiceCIDRSpec", &["cidrs"]),
    ("k8s.io.api.networking.v1.ServiceCIDRStatus", &["conditions"]),
    ("k8s.io.api.networking.v1beta1.IngressLoadBalancerIngress", &["ports"]),
    ("k8s.io.api.networking.v1beta1.IngressLoadBalancerStatus", &["ingress"]),
    ("k8s.io.api.networking.v1beta1.IngressSpec", &["tls", "rules"]),
    ("k8s.io.api.networking.v1beta1.IngressTLS", &["hosts"]),
    ("k8s.io.api.networking.v1beta1.ServiceCIDRSpec", &["cidrs"]),
    ("k8s.io.api.networking.v1beta1.ServiceCIDRStatus", &["conditions"]),
    ("k8s.io.api.node.v1.Overhead", &["podFixed"]),
    ("k8s.io.api.node.v1.Scheduling", &["nodeSelector", "tolerations"]),
    ("k8s.io.api.node.v1alpha1.Overhead", &["podFixed"]),
    ("k8s.io.api.node.v1alpha1.Scheduling", &["nodeSelector", "tolerations"]),
    ("k8s.io.api.node.v1beta1.Overhead", &["podFixed"]),
    ("k8s.io.api.node.v1beta1.Scheduling", &["nodeSelector", "tolerations"]),
    (
        "k8s.io.api.policy.v1.PodDisruptionBudgetStatus",
        &["disruptedPods", "conditions"],
    ),
    (
        "k8s.io.api.policy.v1beta1.PodDisruptionBudgetStatus",
        &["disruptedPods", "conditions"],
    ),
    ("k8s.io.api.rbac.v1.AggregationRule", &["clusterRoleSelectors"]),
    ("k8s.io.api.rbac.v1.ClusterRoleBinding", &["subjects"]),
    (
        "k8s.io.api.rbac.v1.PolicyRule",
        &["apiGroups", "resources", "resourceNames", "nonResourceURLs"],
    ),
    ("k8s.io.api.rbac.v1.RoleBinding", &["subjects"]),
    ("k8s.io.api.rbac.v1alpha1.AggregationRule", &["clusterRoleSelectors"]),
    ("k8s.io.api.rbac.v1alpha1.ClusterRoleBinding", &["subjects"]),
    (
        "k8s.io.api.rbac.v1alpha1.PolicyRule",
        &["apiGroups", "resources", "resourceNames", "nonResourceURLs"],
    ),
    ("k8s.io.api.rbac.v1alpha1.RoleBinding", &["subjects"]),
    ("k8s.io.api.rbac.v1beta1.AggregationRule", &["clusterRoleSelectors"]),
    ("k8s.io.api.rbac.v1beta1.ClusterRoleBinding", &["subjects"]),
    (
        "k8s.io.api.rbac.v1beta1.PolicyRule",
        &["apiGroups", "resources", "resourceNames", "nonResourceURLs"],
    ),
    ("k8s.io.api.rbac.v1beta1.RoleBinding", &["subjects"]),
    ("k8s.io.api.resource.v1.CapacityRequestPolicy", &["validValues"]),
    ("k8s.io.api.resource.v1.CapacityRequirements", &["requests"]),
    ("k8s.io.api.resource.v1.CounterSet", &["counters"]),
    (
        "k8s.io.api.resource.v1.Device",
        &[
            "attributes",
            "capacity",
            "consumesCounters",
            "taints",
            "bindingConditions",
            "bindingFailureConditions",
            "nodeAllocatableResourceMappings",
        ],
    ),
    ("k8s.io.api.resource.v1.DeviceAllocationConfiguration", &["requests"]),
    ("k8s.io.api.resource.v1.DeviceAllocationResult", &["results", "config"]),
    (
        "k8s.io.api.resource.v1.DeviceAttribute",
        &["ints", "bools", "strings", "versions"],
    ),
    ("k8s.io.api.resource.v1.DeviceClaim", &["constraints", "config"]),
    ("k8s.io.api.resource.v1.DeviceClaimConfiguration", &["requests"]),
    ("k8s.io.api.resource.v1.DeviceClassSpec", &["selectors", "config"]),
    ("k8s.io.api.resource.v1.DeviceConstraint", &["requests"]),
    ("k8s.io.api.resource.v1.DeviceCounterConsumption", &["counters"]),
    ("k8s.io.api.resource.v1.DeviceRequest", &["firstAvailable"]),
    (
        "k8s.io.api.resource.v1.DeviceRequestAllocationResult",
        &[
            "tolerations",
            "bindingConditions",
            "bindingFailureConditions",
            "consumedCapacity",
        ],
    ),
    ("k8s.io.api.resource.v1.DeviceSubRequest", &["selectors", "tolerations"]),
    ("k8s.io.api.resource.v1.DeviceTaintRuleStatus", &["conditions"]),
    (
        "k8s.io.api.resource.v1.ExactDeviceRequest",
        &["selectors", "tolerations"],
    ),
    ("k8s.io.api.resource.v1.NetworkDeviceData", &["ips"]),
    (
        "k8s.io.api.resource.v1.ResourceClaimStatus",
        &["reservedFor", "devices"],
    ),
    (
        "k8s.io.api.resource.v1.ResourceSliceSpec",
        &["devices", "sharedCounters"],
    ),
    ("k8s.io.api.resource.v1alpha3.DeviceTaintRuleStatus", &["conditions"]),
    (
        "k8s.io.api.resource.v1alpha3.ResourcePoolStatusRequestStatus",
        &["pools", "conditions"],
    ),
    (
        "k8s.io.api.resource.v1beta1.BasicDevice",
        &[
            "attributes",
            "capacity",
            "consumesCounters",
            "taints",
            "bindingConditions",
            "bindingFailureConditions",
            "nodeAllocatableResourceMappings",
        ],
    ),
    ("k8s.io.api.resource.v1beta1.CapacityRequestPolicy", &["validValues"]),
    ("k8s.io.api.resource.v1beta1.CapacityRequirements", &["requests"]),
    ("k8s.io.api.resource.v1beta1.CounterSet", &["counters"]),
    (
        "k8s.io.api.resource.v1beta1.DeviceAllocationConfiguration",
        &["requests"],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceAllocationResult",
        &["results", "config"],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceAttribute",
        &["ints", "bools", "strings", "versions"],
    ),
    ("k8s.io.api.resource.v1beta1.DeviceClaim", &["constraints", "config"]),
    ("k8s.io.api.resource.v1beta1.DeviceClaimConfiguration", &["requests"]),
    ("k8s.io.api.resource.v1beta1.DeviceClassSpec", &["selectors", "config"]),
    ("k8s.io.api.resource.v1beta1.DeviceConstraint", &["requests"]),
    ("k8s.io.api.resource.v1beta1.DeviceCounterConsumption", &["counters"]),
    (
        "k8s.io.api.resource.v1beta1.DeviceRequest",
        &["selectors", "firstAvailable", "tolerations"],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceRequestAllocationResult",
        &[
            "tolerations",
            "bindingConditions",
            "bindingFailureConditions",
            "consumedCapacity",
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceSubRequest",
        &["selectors", "tolerations"],
    ),
    ("k8s.io.api.resource.v1beta1.NetworkDeviceData", &["ips"]),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimStatus",
        &["reservedFor", "devices"],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceSliceSpec",
        &["devices", "sharedCounters"],
    ),
    ("k8s.io.api.resource.v1beta2.CapacityRequestPolicy", &["validValues"]),
    ("k8s.io.api.resource.v1beta2.CapacityRequirements", &["requests"]),
    ("k8s.io.api.resource.v1beta2.CounterSet", &["counters"]),
    (
        "k8s.io.api.resource.v1beta2.Device",
        &[
            "attributes",
            "capacity",
            "consumesCounters",
            "taints",
            "bindingConditions",
            "bindingFailureConditions",
            "nodeAllocatableResourceMappings",
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceAllocationConfiguration",
        &["requests"],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceAllocationResult",
        &["results", "config"],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceAttribute",
        &["ints", "bools", "strings", "versions"],
    ),
    ("k8s.io.api.resource.v1beta2.DeviceClaim", &["constraints", "config"]),
    ("k8s.io.api.resource.v1beta2.DeviceClaimConfiguration", &["requests"]),
    ("k8s.io.api.resource.v1beta2.DeviceClassSpec", &["selectors", "config"]),
    ("k8s.io.api.resource.v1beta2.DeviceConstraint", &["requests"]),
    ("k8s.io.api.resource.v1beta2.DeviceCounterConsumption", &["counters"]),
    ("k8s.io.api.resource.v1beta2.DeviceRequest", &["firstAvailable"]),
    (
        "k8s.io.api.resource.v1beta2.DeviceRequestAllocationResult",
        &[
            "tolerations",
            "bindingConditions",
            "bindingFailureConditions",
            "consumedCapacity",
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceSubRequest",
        &["selectors", "tolerations"],
    ),
    ("k8s.io.api.resource.v1beta2.DeviceTaintRuleStatus", &["conditions"]),
    (
        "k8s.io.api.resource.v1beta2.ExactDeviceRequest",
        &["selectors", "tolerations"],
    ),
    ("k8s.io.api.resource.v1beta2.NetworkDeviceData", &["ips"]),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimStatus",
        &["reservedFor", "devices"],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceSliceSpec",
        &["devices", "sharedCounters"],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupStatus",
        &["conditions"],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupTemplate",
        &["podGroupTemplates", "compositePodGroupTemplates"],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupSchedulingConstraints",
        &["topology"],
    ),
    ("k8s.io.api.scheduling.v1alpha3.PodGroupSpec", &["resourceClaims"]),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupStatus",
        &["conditions", "resourceClaimStatuses"],
    ),
    ("k8s.io.api.scheduling.v1alpha3.PodGroupTemplate", &["resourceClaims"]),
    (
        "k8s.io.api.scheduling.v1alpha3.WorkloadSpec",
        &["compositePodGroupTemplates"],
    ),
    (
        "k8s.io.api.storage.v1.CSIDriverSpec",
        &["volumeLifecycleModes", "tokenRequests"],
    ),
    (
        "k8s.io.api.storage.v1.StorageClass",
        &["parameters", "mountOptions", "allowedTopologies"],
    ),
    ("k8s.io.api.storage.v1.VolumeAttachmentStatus", &["attachmentMetadata"]),
    ("k8s.io.api.storage.v1.VolumeAttributesClass", &["parameters"]),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttachmentStatus",
        &["attachmentMetadata"],
    ),
    ("k8s.io.api.storage.v1alpha1.VolumeAttributesClass", &["parameters"]),
    (
        "k8s.io.api.storage.v1beta1.CSIDriverSpec",
        &["volumeLifecycleModes", "tokenRequests"],
    ),
    (
        "k8s.io.api.storage.v1beta1.StorageClass",
        &["parameters", "mountOptions", "allowedTopologies"],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttachmentStatus",
        &["attachmentMetadata"],
    ),
    ("k8s.io.api.storage.v1beta1.VolumeAttributesClass", &["parameters"]),
    (
        "k8s.io.api.storagemigration.v1.StorageVersionMigrationStatus",
        &["conditions"],
    ),
    (
        "k8s.io.api.storagemigration.v1beta1.StorageVersionMigrationStatus",
        &["conditions"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames",
        &["shortNames", "categories"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion",
        &["additionalPrinterColumns", "selectableFields"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        &[
            "enum",
            "required",
            "allOf",
            "oneOf",
            "anyOf",
            "properties",
            "patternProperties",
            "dependencies",
            "definitions",
            "x-kubernetes-list-map-keys",
            "x-kubernetes-validations",
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceConversion",
        &["conversionReviewVersions"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionNames",
        &["shortNames", "categories"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionSpec",
        &["versions", "additionalPrinterColumns", "selectableFields"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionVersion",
        &["additionalPrinterColumns", "selectableFields"],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        &[
            "enum",
            "required",
            "allOf",
            "oneOf",
            "anyOf",
            "properties",
            "patternProperties",
            "dependencies",
            "definitions",
            "x-kubernetes-list-map-keys",
            "x-kubernetes-validations",
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIGroup",
        &["serverAddressByClientCIDRs"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIResource",
        &["shortNames", "categories"],
    ),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.ApplyOptions", &["dryRun"]),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.CreateOptions", &["dryRun"]),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions", &["dryRun"]),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement",
        &["values"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",
        &["matchLabels", "matchExpressions"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",
        &["values"],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        &[
            "labels",
            "annotations",
            "ownerReferences",
            "finalizers",
            "managedFields",
        ],
    ),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.PatchOptions", &["dryRun"]),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.StatusDetails", &["causes"]),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.UpdateOptions", &["dryRun"]),
];

/// Fields the Go value of a type holds even when unset, by proto message: (JSON name,
/// zero JSON). A field that is not `omitempty` holds its zero (`""`, `0`, `false`, null
/// for a nil pointer, slice or map); a struct held by value is always there, as `{}`
/// (holding its own such fields) or as its `MarshalJSON` writes its zero value.
pub(crate) const PRESENT_AT_ZERO: &[(&str, &[(&str, &str)])] = &[
    (
        "k8s.io.api.admission.v1.AdmissionRequest",
        &[
            ("uid", "\"\""),
            ("kind", "{}"),
            ("resource", "{}"),
            ("operation", "\"\""),
            ("userInfo", "{}"),
            ("object", "null"),
            ("oldObject", "null"),
            ("options", "null"),
        ],
    ),
    (
        "k8s.io.api.admission.v1.AdmissionResponse",
        &[("uid", "\"\""), ("allowed", "false")],
    ),
    (
        "k8s.io.api.admission.v1beta1.AdmissionRequest",
        &[
            ("uid", "\"\""),
            ("kind", "{}"),
            ("resource", "{}"),
            ("operation", "\"\""),
            ("userInfo", "{}"),
            ("object", "null"),
            ("oldObject", "null"),
            ("options", "null"),
        ],
    ),
    (
        "k8s.io.api.admission.v1beta1.AdmissionResponse",
        &[("uid", "\"\""), ("allowed", "false")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.AuditAnnotation",
        &[("key", "\"\""), ("valueExpression", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ExpressionWarning",
        &[("fieldRef", "\"\""), ("warning", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MatchCondition",
        &[("name", "\"\""), ("expression", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicy",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicyBinding",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicyBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicyList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingWebhook",
        &[
            ("name", "\"\""),
            ("clientConfig", "{}"),
            ("sideEffects", "null"),
            ("admissionReviewVersions", "null"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingWebhookConfiguration",
        &[("metadata", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingWebhookConfigurationList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.admissionregistration.v1.Mutation", &[("patchType", "\"\"")]),
    (
        "k8s.io.api.admissionregistration.v1.ServiceReference",
        &[("namespace", "\"\""), ("name", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicy",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingWebhook",
        &[
            ("name", "\"\""),
            ("clientConfig", "{}"),
            ("sideEffects", "null"),
            ("admissionReviewVersions", "null"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration",
        &[("metadata", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingWebhookConfigurationList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.Validation",
        &[("expression", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.Variable",
        &[("name", "\"\""), ("expression", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.AuditAnnotation",
        &[("key", "\"\""), ("valueExpression", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ExpressionWarning",
        &[("fieldRef", "\"\""), ("warning", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicy",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBinding",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.Mutation",
        &[("patchType", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicy",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyBinding",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.Validation",
        &[("expression", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.Variable",
        &[("name", "\"\""), ("expression", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.AuditAnnotation",
        &[("key", "\"\""), ("valueExpression", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ExpressionWarning",
        &[("fieldRef", "\"\""), ("warning", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MatchCondition",
        &[("name", "\"\""), ("expression", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicy",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBinding",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicyList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingWebhook",
        &[("name", "\"\""), ("clientConfig", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingWebhookConfiguration",
        &[("metadata", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingWebhookConfigurationList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.Mutation",
        &[("patchType", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ServiceReference",
        &[("namespace", "\"\""), ("name", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicy",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBinding",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingWebhook",
        &[("name", "\"\""), ("clientConfig", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingWebhookConfiguration",
        &[("metadata", "{}")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingWebhookConfigurationList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.Validation",
        &[("expression", "\"\"")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.Variable",
        &[("name", "\"\""), ("expression", "\"\"")],
    ),
    ("k8s.io.api.apidiscovery.v2.APIGroupDiscovery", &[("metadata", "{}")]),
    (
        "k8s.io.api.apidiscovery.v2.APIGroupDiscoveryList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apidiscovery.v2.APIResourceDiscovery",
        &[
            ("resource", "\"\""),
            ("scope", "\"\""),
            ("singularResource", "\"\""),
            ("verbs", "null"),
        ],
    ),
    (
        "k8s.io.api.apidiscovery.v2.APISubresourceDiscovery",
        &[("subresource", "\"\""), ("verbs", "null")],
    ),
    ("k8s.io.api.apidiscovery.v2.APIVersionDiscovery", &[("version", "\"\"")]),
    (
        "k8s.io.api.apidiscovery.v2beta1.APIGroupDiscovery",
        &[("metadata", "{}")],
    ),
    (
        "k8s.io.api.apidiscovery.v2beta1.APIGroupDiscoveryList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apidiscovery.v2beta1.APIResourceDiscovery",
        &[
            ("resource", "\"\""),
            ("scope", "\"\""),
            ("singularResource", "\"\""),
            ("verbs", "null"),
        ],
    ),
    (
        "k8s.io.api.apidiscovery.v2beta1.APISubresourceDiscovery",
        &[("subresource", "\"\""), ("verbs", "null")],
    ),
    (
        "k8s.io.api.apidiscovery.v2beta1.APIVersionDiscovery",
        &[("version", "\"\"")],
    ),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.StorageVersion",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastTransitionTime", "null"),
            ("reason", "\"\""),
        ],
    ),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1.ControllerRevision",
        &[("metadata", "{}"), ("data", "null"), ("revision", "0")],
    ),
    (
        "k8s.io.api.apps.v1.ControllerRevisionList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSet",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSetCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSetSpec",
        &[("selector", "null"), ("template", "{}"), ("updateStrategy", "{}")],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSetStatus",
        &[
            ("currentNumberScheduled", "0"),
            ("numberMisscheduled", "0"),
            ("desiredNumberScheduled", "0"),
            ("numberReady", "0"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.Deployment",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apps.v1.DeploymentCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastUpdateTime", "null"),
            ("lastTransitionTime", "null"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.DeploymentList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1.DeploymentSpec",
        &[("selector", "null"), ("template", "{}"), ("strategy", "{}")],
    ),
    (
        "k8s.io.api.apps.v1.ReplicaSet",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apps.v1.ReplicaSetCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.apps.v1.ReplicaSetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1.ReplicaSetSpec",
        &[("selector", "null"), ("template", "{}")],
    ),
    ("k8s.io.api.apps.v1.ReplicaSetStatus", &[("replicas", "0")]),
    (
        "k8s.io.api.apps.v1.StatefulSet",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSetCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.apps.v1.StatefulSetOrdinals", &[("start", "0")]),
    (
        "k8s.io.api.apps.v1.StatefulSetSpec",
        &[
            ("selector", "null"),
            ("template", "{}"),
            ("serviceName", "\"\""),
            ("updateStrategy", "{}"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSetStatus",
        &[("replicas", "0"), ("availableReplicas", "0")],
    ),
    (
        "k8s.io.api.apps.v1beta1.ControllerRevision",
        &[("metadata", "{}"), ("data", "null"), ("revision", "0")],
    ),
    (
        "k8s.io.api.apps.v1beta1.ControllerRevisionList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1beta1.Deployment",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta1.DeploymentCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastUpdateTime", "null"),
            ("lastTransitionTime", "null"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.DeploymentList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1beta1.DeploymentRollback",
        &[("name", "\"\""), ("rollbackTo", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta1.DeploymentSpec",
        &[("template", "{}"), ("strategy", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta1.Scale",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.apps.v1beta1.ScaleStatus", &[("replicas", "0")]),
    (
        "k8s.io.api.apps.v1beta1.StatefulSet",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.apps.v1beta1.StatefulSetOrdinals", &[("start", "0")]),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetSpec",
        &[("template", "{}"), ("serviceName", "\"\""), ("updateStrategy", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetStatus",
        &[("replicas", "0"), ("availableReplicas", "0")],
    ),
    (
        "k8s.io.api.apps.v1beta2.ControllerRevision",
        &[("metadata", "{}"), ("data", "null"), ("revision", "0")],
    ),
    (
        "k8s.io.api.apps.v1beta2.ControllerRevisionList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSet",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSetCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSetSpec",
        &[("selector", "null"), ("template", "{}"), ("updateStrategy", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSetStatus",
        &[
            ("currentNumberScheduled", "0"),
            ("numberMisscheduled", "0"),
            ("desiredNumberScheduled", "0"),
            ("numberReady", "0"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.Deployment",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta2.DeploymentCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastUpdateTime", "null"),
            ("lastTransitionTime", "null"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.DeploymentList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1beta2.DeploymentSpec",
        &[("selector", "null"), ("template", "{}"), ("strategy", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta2.ReplicaSet",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta2.ReplicaSetCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.apps.v1beta2.ReplicaSetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.apps.v1beta2.ReplicaSetSpec",
        &[("selector", "null"), ("template", "{}")],
    ),
    ("k8s.io.api.apps.v1beta2.ReplicaSetStatus", &[("replicas", "0")]),
    (
        "k8s.io.api.apps.v1beta2.Scale",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.apps.v1beta2.ScaleStatus", &[("replicas", "0")]),
    (
        "k8s.io.api.apps.v1beta2.StatefulSet",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.apps.v1beta2.StatefulSetOrdinals", &[("start", "0")]),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetSpec",
        &[
            ("selector", "null"),
            ("template", "{}"),
            ("serviceName", "\"\""),
            ("updateStrategy", "{}"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetStatus",
        &[("replicas", "0"), ("availableReplicas", "0")],
    ),
    (
        "k8s.io.api.authentication.v1.SelfSubjectReview",
        &[("metadata", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.authentication.v1.SelfSubjectReviewStatus",
        &[("userInfo", "{}")],
    ),
    (
        "k8s.io.api.authentication.v1.TokenRequest",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.authentication.v1.TokenRequestSpec",
        &[
            ("audiences", "null"),
            ("expirationSeconds", "null"),
            ("boundObjectRef", "null"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1.TokenRequestStatus",
        &[("token", "\"\""), ("expirationTimestamp", "null")],
    ),
    (
        "k8s.io.api.authentication.v1.TokenReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.authentication.v1.TokenReviewStatus", &[("user", "{}")]),
    (
        "k8s.io.api.authentication.v1alpha1.SelfSubjectReview",
        &[("metadata", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.authentication.v1alpha1.SelfSubjectReviewStatus",
        &[("userInfo", "{}")],
    ),
    (
        "k8s.io.api.authentication.v1beta1.SelfSubjectReview",
        &[("metadata", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.authentication.v1beta1.SelfSubjectReviewStatus",
        &[("userInfo", "{}")],
    ),
    (
        "k8s.io.api.authentication.v1beta1.TokenReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.authentication.v1beta1.TokenReviewStatus", &[("user", "{}")]),
    (
        "k8s.io.api.authorization.v1.LocalSubjectAccessReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.authorization.v1.NonResourceRule", &[("verbs", "null")]),
    ("k8s.io.api.authorization.v1.ResourceRule", &[("verbs", "null")]),
    (
        "k8s.io.api.authorization.v1.SelfSubjectAccessReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.authorization.v1.SelfSubjectRulesReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.authorization.v1.SubjectAccessReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.authorization.v1.SubjectAccessReviewStatus",
        &[("allowed", "false")],
    ),
    (
        "k8s.io.api.authorization.v1.SubjectRulesReviewStatus",
        &[
            ("resourceRules", "null"),
            ("nonResourceRules", "null"),
            ("incomplete", "false"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.LocalSubjectAccessReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.authorization.v1beta1.NonResourceRule", &[("verbs", "null")]),
    ("k8s.io.api.authorization.v1beta1.ResourceRule", &[("verbs", "null")]),
    (
        "k8s.io.api.authorization.v1beta1.SelfSubjectAccessReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SelfSubjectRulesReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectAccessReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectAccessReviewStatus",
        &[("allowed", "false")],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectRulesReviewStatus",
        &[
            ("resourceRules", "null"),
            ("nonResourceRules", "null"),
            ("incomplete", "false"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.ContainerResourceMetricSource",
        &[("name", "\"\""), ("container", "\"\"")],
    ),
    (
        "k8s.io.api.autoscaling.v1.ContainerResourceMetricStatus",
        &[
            ("name", "\"\""),
            ("currentAverageValue", "\"0\""),
            ("container", "\"\""),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.CrossVersionObjectReference",
        &[("kind", "\"\""), ("name", "\"\"")],
    ),
    (
        "k8s.io.api.autoscaling.v1.ExternalMetricSource",
        &[("metricName", "\"\"")],
    ),
    (
        "k8s.io.api.autoscaling.v1.ExternalMetricStatus",
        &[("metricName", "\"\""), ("currentValue", "\"0\"")],
    ),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscaler",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerSpec",
        &[("scaleTargetRef", "{}"), ("maxReplicas", "0")],
    ),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerStatus",
        &[("currentReplicas", "0"), ("desiredReplicas", "0")],
    ),
    ("k8s.io.api.autoscaling.v1.MetricSpec", &[("type", "\"\"")]),
    ("k8s.io.api.autoscaling.v1.MetricStatus", &[("type", "\"\"")]),
    (
        "k8s.io.api.autoscaling.v1.ObjectMetricSource",
        &[("target", "{}"), ("metricName", "\"\""), ("targetValue", "\"0\"")],
    ),
    (
        "k8s.io.api.autoscaling.v1.ObjectMetricStatus",
        &[("target", "{}"), ("metricName", "\"\""), ("currentValue", "\"0\"")],
    ),
    (
        "k8s.io.api.autoscaling.v1.PodsMetricSource",
        &[("metricName", "\"\""), ("targetAverageValue", "\"0\"")],
    ),
    (
        "k8s.io.api.autoscaling.v1.PodsMetricStatus",
        &[("metricName", "\"\""), ("currentAverageValue", "\"0\"")],
    ),
    ("k8s.io.api.autoscaling.v1.ResourceMetricSource", &[("name", "\"\"")]),
    (
        "k8s.io.api.autoscaling.v1.ResourceMetricStatus",
        &[("name", "\"\""), ("currentAverageValue", "\"0\"")],
    ),
    (
        "k8s.io.api.autoscaling.v1.Scale",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.autoscaling.v1.ScaleStatus", &[("replicas", "0")]),
    (
        "k8s.io.api.autoscaling.v2.ContainerResourceMetricSource",
        &[("name", "\"\""), ("target", "{}"), ("container", "\"\"")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ContainerResourceMetricStatus",
        &[("name", "\"\""), ("current", "{}"), ("container", "\"\"")],
    ),
    (
        "k8s.io.api.autoscaling.v2.CrossVersionObjectReference",
        &[("kind", "\"\""), ("name", "\"\"")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ExternalMetricSource",
        &[("metric", "{}"), ("target", "{}")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ExternalMetricStatus",
        &[("metric", "{}"), ("current", "{}")],
    ),
    (
        "k8s.io.api.autoscaling.v2.HPAScalingPolicy",
        &[("type", "\"\""), ("value", "0"), ("periodSeconds", "0")],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscaler",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerSpec",
        &[("scaleTargetRef", "{}"), ("maxReplicas", "0")],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerStatus",
        &[("desiredReplicas", "0"), ("currentMetrics", "null")],
    ),
    ("k8s.io.api.autoscaling.v2.MetricIdentifier", &[("name", "\"\"")]),
    ("k8s.io.api.autoscaling.v2.MetricSpec", &[("type", "\"\"")]),
    ("k8s.io.api.autoscaling.v2.MetricStatus", &[("type", "\"\"")]),
    ("k8s.io.api.autoscaling.v2.MetricTarget", &[("type", "\"\"")]),
    (
        "k8s.io.api.autoscaling.v2.ObjectMetricSource",
        &[("describedObject", "{}"), ("target", "{}"), ("metric", "{}")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ObjectMetricStatus",
        &[("metric", "{}"), ("current", "{}"), ("describedObject", "{}")],
    ),
    (
        "k8s.io.api.autoscaling.v2.PodsMetricSource",
        &[("metric", "{}"), ("target", "{}")],
    ),
    (
        "k8s.io.api.autoscaling.v2.PodsMetricStatus",
        &[("metric", "{}"), ("current", "{}")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ResourceMetricSource",
        &[("name", "\"\""), ("target", "{}")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ResourceMetricStatus",
        &[("name", "\"\""), ("current", "{}")],
    ),
    (
        "k8s.io.api.batch.v1.CronJob",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.batch.v1.CronJobList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.batch.v1.CronJobSpec",
        &[("schedule", "\"\""), ("jobTemplate", "{}")],
    ),
    (
        "k8s.io.api.batch.v1.Job",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.batch.v1.JobCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastProbeTime", "null"),
            ("lastTransitionTime", "null"),
        ],
    ),
    ("k8s.io.api.batch.v1.JobList", &[("metadata", "{}"), ("items", "null")]),
    ("k8s.io.api.batch.v1.JobSpec", &[("template", "{}")]),
    (
        "k8s.io.api.batch.v1.JobTemplateSpec",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    ("k8s.io.api.batch.v1.PodFailurePolicy", &[("rules", "null")]),
    (
        "k8s.io.api.batch.v1.PodFailurePolicyOnExitCodesRequirement",
        &[("operator", "\"\""), ("values", "null")],
    ),
    (
        "k8s.io.api.batch.v1.PodFailurePolicyOnPodConditionsPattern",
        &[("type", "\"\""), ("status", "\"\"")],
    ),
    ("k8s.io.api.batch.v1.PodFailurePolicyRule", &[("action", "\"\"")]),
    ("k8s.io.api.batch.v1.SuccessPolicy", &[("rules", "null")]),
    (
        "k8s.io.api.batch.v1beta1.CronJob",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.batch.v1beta1.CronJobList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.batch.v1beta1.CronJobSpec",
        &[("schedule", "\"\""), ("jobTemplate", "{}")],
    ),
    (
        "k8s.io.api.batch.v1beta1.JobTemplateSpec",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequest",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastUpdateTime", "null"),
            ("lastTransitionTime", "null"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestSpec",
        &[("request", "null"), ("signerName", "\"\"")],
    ),
    (
        "k8s.io.api.certificates.v1.ClusterTrustBundle",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.certificates.v1.ClusterTrustBundleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.certificates.v1.ClusterTrustBundleSpec",
        &[("trustBundle", "\"\"")],
    ),
    (
        "k8s.io.api.certificates.v1alpha1.ClusterTrustBundle",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.certificates.v1alpha1.ClusterTrustBundleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.certificates.v1alpha1.ClusterTrustBundleSpec",
        &[("trustBundle", "\"\"")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequest",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastUpdateTime", "null"),
            ("lastTransitionTime", "null"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestSpec",
        &[("request", "null")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.ClusterTrustBundle",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.ClusterTrustBundleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.ClusterTrustBundleSpec",
        &[("trustBundle", "\"\"")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.PodCertificateRequest",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.PodCertificateRequestList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.PodCertificateRequestSpec",
        &[
            ("signerName", "\"\""),
            ("podName", "\"\""),
            ("podUID", "\"\""),
            ("serviceAccountName", "\"\""),
            ("serviceAccountUID", "\"\""),
            ("nodeName", "\"\""),
            ("nodeUID", "\"\""),
            ("pkixPublicKey", "null"),
            ("proofOfPossession", "null"),
            ("stubPKCS10Request", "null"),
        ],
    ),
    (
        "k8s.io.api.coordination.v1.Lease",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.coordination.v1.LeaseList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.coordination.v1alpha2.LeaseCandidate",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.coordination.v1alpha2.LeaseCandidateList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.coordination.v1alpha2.LeaseCandidateSpec",
        &[("leaseName", "\"\""), ("binaryVersion", "\"\"")],
    ),
    (
        "k8s.io.api.coordination.v1beta1.Lease",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.coordination.v1beta1.LeaseCandidate",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.coordination.v1beta1.LeaseCandidateList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.coordination.v1beta1.LeaseCandidateSpec",
        &[("leaseName", "\"\""), ("binaryVersion", "\"\"")],
    ),
    (
        "k8s.io.api.coordination.v1beta1.LeaseList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.core.v1.AWSElasticBlockStoreVolumeSource",
        &[("volumeID", "\"\"")],
    ),
    ("k8s.io.api.core.v1.AppArmorProfile", &[("type", "\"\"")]),
    (
        "k8s.io.api.core.v1.AttachedVolume",
        &[("name", "\"\""), ("devicePath", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.AzureDiskVolumeSource",
        &[("diskName", "\"\""), ("diskURI", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.AzureFilePersistentVolumeSource",
        &[
            ("secretName", "\"\""),
            ("shareName", "\"\""),
            ("secretNamespace", "null"),
        ],
    ),
    (
        "k8s.io.api.core.v1.AzureFileVolumeSource",
        &[("secretName", "\"\""), ("shareName", "\"\"")],
    ),
    ("k8s.io.api.core.v1.Binding", &[("metadata", "{}"), ("target", "{}")]),
    (
        "k8s.io.api.core.v1.CSIPersistentVolumeSource",
        &[("driver", "\"\""), ("volumeHandle", "\"\"")],
    ),
    ("k8s.io.api.core.v1.CSIVolumeSource", &[("driver", "\"\"")]),
    (
        "k8s.io.api.core.v1.CephFSPersistentVolumeSource",
        &[("monitors", "null")],
    ),
    ("k8s.io.api.core.v1.CephFSVolumeSource", &[("monitors", "null")]),
    (
        "k8s.io.api.core.v1.CinderPersistentVolumeSource",
        &[("volumeID", "\"\"")],
    ),
    ("k8s.io.api.core.v1.CinderVolumeSource", &[("volumeID", "\"\"")]),
    ("k8s.io.api.core.v1.ClusterTrustBundleProjection", &[("path", "\"\"")]),
    (
        "k8s.io.api.core.v1.ComponentCondition",
        &[("type", "\"\""), ("status", "\"\"")],
    ),
    ("k8s.io.api.core.v1.ComponentStatus", &[("metadata", "{}")]),
    (
        "k8s.io.api.core.v1.ComponentStatusList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.core.v1.ConfigMap", &[("metadata", "{}")]),
    ("k8s.io.api.core.v1.ConfigMapKeySelector", &[("key", "\"\"")]),
    (
        "k8s.io.api.core.v1.ConfigMapList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.core.v1.ConfigMapNodeConfigSource",
        &[("namespace", "\"\""), ("name", "\"\""), ("kubeletConfigKey", "\"\"")],
    ),
    ("k8s.io.api.core.v1.Container", &[("name", "\"\""), ("resources", "{}")]),
    (
        "k8s.io.api.core.v1.ContainerExtendedResourceRequest",
        &[
            ("containerName", "\"\""),
            ("resourceName", "\"\""),
            ("requestName", "\"\""),
        ],
    ),
    ("k8s.io.api.core.v1.ContainerImage", &[("names", "null")]),
    ("k8s.io.api.core.v1.ContainerPort", &[("containerPort", "0")]),
    (
        "k8s.io.api.core.v1.ContainerResizePolicy",
        &[("resourceName", "\"\""), ("restartPolicy", "\"\"")],
    ),
    ("k8s.io.api.core.v1.ContainerStateRunning", &[("startedAt", "null")]),
    (
        "k8s.io.api.core.v1.ContainerStateTerminated",
        &[("exitCode", "0"), ("startedAt", "null"), ("finishedAt", "null")],
    ),
    (
        "k8s.io.api.core.v1.ContainerStatus",
        &[
            ("name", "\"\""),
            ("state", "{}"),
            ("lastState", "{}"),
            ("ready", "false"),
            ("restartCount", "0"),
            ("image", "\"\""),
            ("imageID", "\"\""),
        ],
    ),
    ("k8s.io.api.core.v1.DaemonEndpoint", &[("Port", "0")]),
    ("k8s.io.api.core.v1.DownwardAPIVolumeFile", &[("path", "\"\"")]),
    ("k8s.io.api.core.v1.EndpointAddress", &[("ip", "\"\"")]),
    ("k8s.io.api.core.v1.EndpointPort", &[("port", "0")]),
    ("k8s.io.api.core.v1.Endpoints", &[("metadata", "{}")]),
    (
        "k8s.io.api.core.v1.EndpointsList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.core.v1.EnvVar", &[("name", "\"\"")]),
    (
        "k8s.io.api.core.v1.EphemeralContainerCommon",
        &[("name", "\"\""), ("resources", "{}")],
    ),
    (
        "k8s.io.api.core.v1.Event",
        &[
            ("metadata", "{}"),
            ("involvedObject", "{}"),
            ("source", "{}"),
            ("firstTimestamp", "null"),
            ("lastTimestamp", "null"),
            ("eventTime", "null"),
            ("reportingComponent", "\"\""),
            ("reportingInstance", "\"\""),
        ],
    ),
    ("k8s.io.api.core.v1.EventList", &[("metadata", "{}"), ("items", "null")]),
    ("k8s.io.api.core.v1.EventSeries", &[("lastObservedTime", "null")]),
    (
        "k8s.io.api.core.v1.FileKeySelector",
        &[("volumeName", "\"\""), ("path", "\"\""), ("key", "\"\"")],
    ),
    ("k8s.io.api.core.v1.FlexPersistentVolumeSource", &[("driver", "\"\"")]),
    ("k8s.io.api.core.v1.FlexVolumeSource", &[("driver", "\"\"")]),
    (
        "k8s.io.api.core.v1.GCEPersistentDiskVolumeSource",
        &[("pdName", "\"\"")],
    ),
    ("k8s.io.api.core.v1.GRPCAction", &[("port", "0"), ("service", "null")]),
    ("k8s.io.api.core.v1.GitRepoVolumeSource", &[("repository", "\"\"")]),
    (
        "k8s.io.api.core.v1.GlusterfsPersistentVolumeSource",
        &[("endpoints", "\"\""), ("path", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.GlusterfsVolumeSource",
        &[("endpoints", "\"\""), ("path", "\"\"")],
    ),
    ("k8s.io.api.core.v1.HTTPGetAction", &[("port", "0")]),
    ("k8s.io.api.core.v1.HTTPHeader", &[("name", "\"\""), ("value", "\"\"")]),
    ("k8s.io.api.core.v1.HostAlias", &[("ip", "\"\"")]),
    ("k8s.io.api.core.v1.HostIP", &[("ip", "\"\"")]),
    ("k8s.io.api.core.v1.HostPathVolumeSource", &[("path", "\"\"")]),
    (
        "k8s.io.api.core.v1.ISCSIPersistentVolumeSource",
        &[("targetPortal", "\"\""), ("iqn", "\"\""), ("lun", "0")],
    ),
    (
        "k8s.io.api.core.v1.ISCSIVolumeSource",
        &[("targetPortal", "\"\""), ("iqn", "\"\""), ("lun", "0")],
    ),
    ("k8s.io.api.core.v1.KeyToPath", &[("key", "\"\""), ("path", "\"\"")]),
    ("k8s.io.api.core.v1.LimitRange", &[("metadata", "{}"), ("spec", "{}")]),
    ("k8s.io.api.core.v1.LimitRangeItem", &[("type", "\"\"")]),
    (
        "k8s.io.api.core.v1.LimitRangeList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.core.v1.LimitRangeSpec", &[("limits", "null")]),
    ("k8s.io.api.core.v1.LinuxContainerUser", &[("uid", "0"), ("gid", "0")]),
    ("k8s.io.api.core.v1.LocalVolumeSource", &[("path", "\"\"")]),
    ("k8s.io.api.core.v1.ModifyVolumeStatus", &[("status", "\"\"")]),
    (
        "k8s.io.api.core.v1.NFSVolumeSource",
        &[("server", "\"\""), ("path", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.Namespace",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.core.v1.NamespaceCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.core.v1.NamespaceList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.core.v1.Node",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.core.v1.NodeAddress",
        &[("type", "\"\""), ("address", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.NodeAllocatableResourceClaimStatus",
        &[("resourceClaimName", "\"\""), ("resources", "null")],
    ),
    (
        "k8s.io.api.core.v1.NodeCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastHeartbeatTime", "null"),
            ("lastTransitionTime", "null"),
        ],
    ),
    ("k8s.io.api.core.v1.NodeDaemonEndpoints", &[("kubeletEndpoint", "{}")]),
    ("k8s.io.api.core.v1.NodeList", &[("metadata", "{}"), ("items", "null")]),
    ("k8s.io.api.core.v1.NodeRuntimeHandler", &[("name", "\"\"")]),
    ("k8s.io.api.core.v1.NodeSelector", &[("nodeSelectorTerms", "null")]),
    (
        "k8s.io.api.core.v1.NodeSelectorRequirement",
        &[("key", "\"\""), ("operator", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.NodeStatus",
        &[("daemonEndpoints", "{}"), ("nodeInfo", "{}")],
    ),
    (
        "k8s.io.api.core.v1.NodeSystemInfo",
        &[
            ("machineID", "\"\""),
            ("systemUUID", "\"\""),
            ("bootID", "\"\""),
            ("kernelVersion", "\"\""),
            ("osImage", "\"\""),
            ("containerRuntimeVersion", "\"\""),
            ("kubeletVersion", "\"\""),
            ("kubeProxyVersion", "\"\""),
            ("operatingSystem", "\"\""),
            ("architecture", "\"\""),
        ],
    ),
    ("k8s.io.api.core.v1.ObjectFieldSelector", &[("fieldPath", "\"\"")]),
    (
        "k8s.io.api.core.v1.PersistentVolume",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaim",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastProbeTime", "null"),
            ("lastTransitionTime", "null"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.core.v1.PersistentVolumeClaimSpec", &[("resources", "{}")]),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimTemplate",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimVolumeSource",
        &[("claimName", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.core.v1.PhotonPersistentDiskVolumeSource",
        &[("pdID", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.Pod",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.core.v1.PodAffinityTerm", &[("topologyKey", "\"\"")]),
    (
        "k8s.io.api.core.v1.PodCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastProbeTime", "null"),
            ("lastTransitionTime", "null"),
        ],
    ),
    ("k8s.io.api.core.v1.PodExecOptions", &[("command", "null")]),
    (
        "k8s.io.api.core.v1.PodExtendedResourceClaimStatus",
        &[("requestMappings", "null"), ("resourceClaimName", "\"\"")],
    ),
    ("k8s.io.api.core.v1.PodIP", &[("ip", "\"\"")]),
    ("k8s.io.api.core.v1.PodList", &[("metadata", "{}"), ("items", "null")]),
    ("k8s.io.api.core.v1.PodOS", &[("name", "\"\"")]),
    ("k8s.io.api.core.v1.PodReadinessGate", &[("conditionType", "\"\"")]),
    ("k8s.io.api.core.v1.PodResourceClaim", &[("name", "\"\"")]),
    ("k8s.io.api.core.v1.PodResourceClaimStatus", &[("name", "\"\"")]),
    ("k8s.io.api.core.v1.PodSchedulingGate", &[("name", "\"\"")]),
    ("k8s.io.api.core.v1.PodSpec", &[("containers", "null")]),
    (
        "k8s.io.api.core.v1.PodTemplate",
        &[("metadata", "{}"), ("template", "{}")],
    ),
    (
        "k8s.io.api.core.v1.PodTemplateList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.core.v1.PodTemplateSpec",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    ("k8s.io.api.core.v1.PortStatus", &[("port", "0"), ("protocol", "\"\"")]),
    ("k8s.io.api.core.v1.PortworxVolumeSource", &[("volumeID", "\"\"")]),
    (
        "k8s.io.api.core.v1.PreferAvoidPodsEntry",
        &[("podSignature", "{}"), ("evictionTime", "null")],
    ),
    (
        "k8s.io.api.core.v1.PreferredSchedulingTerm",
        &[("weight", "0"), ("preference", "{}")],
    ),
    ("k8s.io.api.core.v1.ProjectedVolumeSource", &[("sources", "null")]),
    (
        "k8s.io.api.core.v1.QuobyteVolumeSource",
        &[("registry", "\"\""), ("volume", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.RBDPersistentVolumeSource",
        &[("monitors", "null"), ("image", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.RBDVolumeSource",
        &[("monitors", "null"), ("image", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.RangeAllocation",
        &[("metadata", "{}"), ("range", "\"\""), ("data", "null")],
    ),
    (
        "k8s.io.api.core.v1.ReplicationController",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.core.v1.ReplicationControllerCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.core.v1.ReplicationControllerList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.core.v1.ReplicationControllerStatus", &[("replicas", "0")]),
    ("k8s.io.api.core.v1.ResourceClaim", &[("name", "\"\"")]),
    (
        "k8s.io.api.core.v1.ResourceFieldSelector",
        &[("resource", "\"\""), ("divisor", "\"0\"")],
    ),
    ("k8s.io.api.core.v1.ResourceHealth", &[("resourceID", "\"\"")]),
    (
        "k8s.io.api.core.v1.ResourceQuota",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.core.v1.ResourceQuotaList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.core.v1.ResourceStatus", &[("name", "\"\"")]),
    (
        "k8s.io.api.core.v1.ScaleIOPersistentVolumeSource",
        &[("gateway", "\"\""), ("system", "\"\""), ("secretRef", "null")],
    ),
    (
        "k8s.io.api.core.v1.ScaleIOVolumeSource",
        &[("gateway", "\"\""), ("system", "\"\""), ("secretRef", "null")],
    ),
    (
        "k8s.io.api.core.v1.ScopedResourceSelectorRequirement",
        &[("scopeName", "\"\""), ("operator", "\"\"")],
    ),
    ("k8s.io.api.core.v1.SeccompProfile", &[("type", "\"\"")]),
    ("k8s.io.api.core.v1.Secret", &[("metadata", "{}")]),
    ("k8s.io.api.core.v1.SecretKeySelector", &[("key", "\"\"")]),
    (
        "k8s.io.api.core.v1.SecretList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.core.v1.SerializedReference", &[("reference", "{}")]),
    (
        "k8s.io.api.core.v1.Service",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.core.v1.ServiceAccount", &[("metadata", "{}")]),
    (
        "k8s.io.api.core.v1.ServiceAccountList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.core.v1.ServiceAccountTokenProjection", &[("path", "\"\"")]),
    (
        "k8s.io.api.core.v1.ServiceList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.core.v1.ServicePort", &[("port", "0"), ("targetPort", "0")]),
    ("k8s.io.api.core.v1.ServiceStatus", &[("loadBalancer", "{}")]),
    ("k8s.io.api.core.v1.SleepAction", &[("seconds", "0")]),
    ("k8s.io.api.core.v1.Sysctl", &[("name", "\"\""), ("value", "\"\"")]),
    ("k8s.io.api.core.v1.TCPSocketAction", &[("port", "0")]),
    ("k8s.io.api.core.v1.Taint", &[("key", "\"\""), ("effect", "\"\"")]),
    (
        "k8s.io.api.core.v1.TopologySelectorLabelRequirement",
        &[("key", "\"\""), ("values", "null")],
    ),
    (
        "k8s.io.api.core.v1.TopologySpreadConstraint",
        &[("maxSkew", "0"), ("topologyKey", "\"\""), ("whenUnsatisfiable", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.TypedLocalObjectReference",
        &[("apiGroup", "null"), ("kind", "\"\""), ("name", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.TypedObjectReference",
        &[("apiGroup", "null"), ("kind", "\"\""), ("name", "\"\"")],
    ),
    ("k8s.io.api.core.v1.Volume", &[("name", "\"\"")]),
    (
        "k8s.io.api.core.v1.VolumeDevice",
        &[("name", "\"\""), ("devicePath", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.VolumeMount",
        &[("name", "\"\""), ("mountPath", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.VolumeMountStatus",
        &[("name", "\"\""), ("mountPath", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.VsphereVirtualDiskVolumeSource",
        &[("volumePath", "\"\"")],
    ),
    (
        "k8s.io.api.core.v1.WeightedPodAffinityTerm",
        &[("weight", "0"), ("podAffinityTerm", "{}")],
    ),
    (
        "k8s.io.api.discovery.v1.Endpoint",
        &[("addresses", "null"), ("conditions", "{}")],
    ),
    (
        "k8s.io.api.discovery.v1.EndpointSlice",
        &[
            ("metadata", "{}"),
            ("addressType", "\"\""),
            ("endpoints", "null"),
            ("ports", "null"),
        ],
    ),
    (
        "k8s.io.api.discovery.v1.EndpointSliceList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.discovery.v1.ForNode", &[("name", "\"\"")]),
    ("k8s.io.api.discovery.v1.ForZone", &[("name", "\"\"")]),
    (
        "k8s.io.api.discovery.v1beta1.Endpoint",
        &[("addresses", "null"), ("conditions", "{}")],
    ),
    (
        "k8s.io.api.discovery.v1beta1.EndpointSlice",
        &[
            ("metadata", "{}"),
            ("addressType", "\"\""),
            ("endpoints", "null"),
            ("ports", "null"),
        ],
    ),
    (
        "k8s.io.api.discovery.v1beta1.EndpointSliceList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.discovery.v1beta1.ForNode", &[("name", "\"\"")]),
    ("k8s.io.api.discovery.v1beta1.ForZone", &[("name", "\"\"")]),
    (
        "k8s.io.api.events.v1.Event",
        &[
            ("metadata", "{}"),
            ("eventTime", "null"),
            ("regarding", "{}"),
            ("deprecatedSource", "{}"),
            ("deprecatedFirstTimestamp", "null"),
            ("deprecatedLastTimestamp", "null"),
        ],
    ),
    (
        "k8s.io.api.events.v1.EventList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.events.v1.EventSeries",
        &[("count", "0"), ("lastObservedTime", "null")],
    ),
    (
        "k8s.io.api.events.v1beta1.Event",
        &[
            ("metadata", "{}"),
            ("eventTime", "null"),
            ("regarding", "{}"),
            ("deprecatedSource", "{}"),
            ("deprecatedFirstTimestamp", "null"),
            ("deprecatedLastTimestamp", "null"),
        ],
    ),
    (
        "k8s.io.api.events.v1beta1.EventList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.events.v1beta1.EventSeries",
        &[("count", "0"), ("lastObservedTime", "null")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSet",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetSpec",
        &[("template", "{}"), ("updateStrategy", "{}")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetStatus",
        &[
            ("currentNumberScheduled", "0"),
            ("numberMisscheduled", "0"),
            ("desiredNumberScheduled", "0"),
            ("numberReady", "0"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.Deployment",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentCondition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastUpdateTime", "null"),
            ("lastTransitionTime", "null"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentRollback",
        &[("name", "\"\""), ("rollbackTo", "{}")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentSpec",
        &[("template", "{}"), ("strategy", "{}")],
    ),
    ("k8s.io.api.extensions.v1beta1.HTTPIngressPath", &[("backend", "{}")]),
    (
        "k8s.io.api.extensions.v1beta1.HTTPIngressRuleValue",
        &[("paths", "null")],
    ),
    ("k8s.io.api.extensions.v1beta1.IPBlock", &[("cidr", "\"\"")]),
    (
        "k8s.io.api.extensions.v1beta1.Ingress",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.extensions.v1beta1.IngressBackend", &[("servicePort", "0")]),
    (
        "k8s.io.api.extensions.v1beta1.IngressList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressPortStatus",
        &[("port", "0"), ("protocol", "\"\"")],
    ),
    ("k8s.io.api.extensions.v1beta1.IngressStatus", &[("loadBalancer", "{}")]),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicy",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicyList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicySpec",
        &[("podSelector", "{}")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.ReplicaSet",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.ReplicaSetCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.ReplicaSetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.extensions.v1beta1.ReplicaSetSpec", &[("template", "{}")]),
    ("k8s.io.api.extensions.v1beta1.ReplicaSetStatus", &[("replicas", "0")]),
    (
        "k8s.io.api.extensions.v1beta1.Scale",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.extensions.v1beta1.ScaleStatus", &[("replicas", "0")]),
    ("k8s.io.api.flowcontrol.v1.FlowDistinguisherMethod", &[("type", "\"\"")]),
    (
        "k8s.io.api.flowcontrol.v1.FlowSchema",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.FlowSchemaCondition",
        &[("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.FlowSchemaList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.FlowSchemaSpec",
        &[("priorityLevelConfiguration", "{}"), ("matchingPrecedence", "0")],
    ),
    ("k8s.io.api.flowcontrol.v1.GroupSubject", &[("name", "\"\"")]),
    ("k8s.io.api.flowcontrol.v1.LimitResponse", &[("type", "\"\"")]),
    (
        "k8s.io.api.flowcontrol.v1.LimitedPriorityLevelConfiguration",
        &[("nominalConcurrencyShares", "null"), ("limitResponse", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.NonResourcePolicyRule",
        &[("verbs", "null"), ("nonResourceURLs", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PolicyRulesWithSubjects",
        &[("subjects", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfiguration",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationCondition",
        &[("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationReference",
        &[("name", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationSpec",
        &[("type", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.QueuingConfiguration",
        &[("queues", "0"), ("handSize", "0"), ("queueLengthLimit", "0")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.ResourcePolicyRule",
        &[
            ("verbs", "null"),
            ("apiGroups", "null"),
            ("resources", "null"),
            ("namespaces", "null"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.ServiceAccountSubject",
        &[("namespace", "\"\""), ("name", "\"\"")],
    ),
    ("k8s.io.api.flowcontrol.v1.Subject", &[("kind", "\"\"")]),
    ("k8s.io.api.flowcontrol.v1.UserSubject", &[("name", "\"\"")]),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowDistinguisherMethod",
        &[("type", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowSchema",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowSchemaCondition",
        &[("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowSchemaList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowSchemaSpec",
        &[("priorityLevelConfiguration", "{}"), ("matchingPrecedence", "0")],
    ),
    ("k8s.io.api.flowcontrol.v1beta1.GroupSubject", &[("name", "\"\"")]),
    ("k8s.io.api.flowcontrol.v1beta1.LimitResponse", &[("type", "\"\"")]),
    (
        "k8s.io.api.flowcontrol.v1beta1.LimitedPriorityLevelConfiguration",
        &[("assuredConcurrencyShares", "0"), ("limitResponse", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.NonResourcePolicyRule",
        &[("verbs", "null"), ("nonResourceURLs", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PolicyRulesWithSubjects",
        &[("subjects", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfiguration",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationCondition",
        &[("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationReference",
        &[("name", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationSpec",
        &[("type", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.QueuingConfiguration",
        &[("queues", "0"), ("handSize", "0"), ("queueLengthLimit", "0")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.ResourcePolicyRule",
        &[
            ("verbs", "null"),
            ("apiGroups", "null"),
            ("resources", "null"),
            ("namespaces", "null"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.ServiceAccountSubject",
        &[("namespace", "\"\""), ("name", "\"\"")],
    ),
    ("k8s.io.api.flowcontrol.v1beta1.Subject", &[("kind", "\"\"")]),
    ("k8s.io.api.flowcontrol.v1beta1.UserSubject", &[("name", "\"\"")]),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowDistinguisherMethod",
        &[("type", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowSchema",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowSchemaCondition",
        &[("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowSchemaList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowSchemaSpec",
        &[("priorityLevelConfiguration", "{}"), ("matchingPrecedence", "0")],
    ),
    ("k8s.io.api.flowcontrol.v1beta2.GroupSubject", &[("name", "\"\"")]),
    ("k8s.io.api.flowcontrol.v1beta2.LimitResponse", &[("type", "\"\"")]),
    (
        "k8s.io.api.flowcontrol.v1beta2.LimitedPriorityLevelConfiguration",
        &[("assuredConcurrencyShares", "0"), ("limitResponse", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.NonResourcePolicyRule",
        &[("verbs", "null"), ("nonResourceURLs", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PolicyRulesWithSubjects",
        &[("subjects", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfiguration",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationCondition",
        &[("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationReference",
        &[("name", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationSpec",
        &[("type", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.QueuingConfiguration",
        &[("queues", "0"), ("handSize", "0"), ("queueLengthLimit", "0")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.ResourcePolicyRule",
        &[
            ("verbs", "null"),
            ("apiGroups", "null"),
            ("resources", "null"),
            ("namespaces", "null"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.ServiceAccountSubject",
        &[("namespace", "\"\""), ("name", "\"\"")],
    ),
    ("k8s.io.api.flowcontrol.v1beta2.Subject", &[("kind", "\"\"")]),
    ("k8s.io.api.flowcontrol.v1beta2.UserSubject", &[("name", "\"\"")]),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowDistinguisherMethod",
        &[("type", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowSchema",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowSchemaCondition",
        &[("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowSchemaList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowSchemaSpec",
        &[("priorityLevelConfiguration", "{}"), ("matchingPrecedence", "0")],
    ),
    ("k8s.io.api.flowcontrol.v1beta3.GroupSubject", &[("name", "\"\"")]),
    ("k8s.io.api.flowcontrol.v1beta3.LimitResponse", &[("type", "\"\"")]),
    (
        "k8s.io.api.flowcontrol.v1beta3.LimitedPriorityLevelConfiguration",
        &[("nominalConcurrencyShares", "0"), ("limitResponse", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.NonResourcePolicyRule",
        &[("verbs", "null"), ("nonResourceURLs", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PolicyRulesWithSubjects",
        &[("subjects", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfiguration",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationCondition",
        &[("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationReference",
        &[("name", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationSpec",
        &[("type", "\"\"")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.QueuingConfiguration",
        &[("queues", "0"), ("handSize", "0"), ("queueLengthLimit", "0")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.ResourcePolicyRule",
        &[
            ("verbs", "null"),
            ("apiGroups", "null"),
            ("resources", "null"),
            ("namespaces", "null"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.ServiceAccountSubject",
        &[("namespace", "\"\""), ("name", "\"\"")],
    ),
    ("k8s.io.api.flowcontrol.v1beta3.Subject", &[("kind", "\"\"")]),
    ("k8s.io.api.flowcontrol.v1beta3.UserSubject", &[("name", "\"\"")]),
    (
        "k8s.io.api.imagepolicy.v1alpha1.ImageReview",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.imagepolicy.v1alpha1.ImageReviewStatus",
        &[("allowed", "false")],
    ),
    (
        "k8s.io.api.networking.v1.HTTPIngressPath",
        &[("pathType", "null"), ("backend", "{}")],
    ),
    ("k8s.io.api.networking.v1.HTTPIngressRuleValue", &[("paths", "null")]),
    (
        "k8s.io.api.networking.v1.IPAddress",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.networking.v1.IPAddressList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.networking.v1.IPBlock", &[("cidr", "\"\"")]),
    (
        "k8s.io.api.networking.v1.Ingress",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.networking.v1.IngressClass",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.networking.v1.IngressClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.networking.v1.IngressClassParametersReference",
        &[("kind", "\"\""), ("name", "\"\""), ("scope", "null")],
    ),
    (
        "k8s.io.api.networking.v1.IngressList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.networking.v1.IngressPortStatus",
        &[("port", "0"), ("protocol", "\"\"")],
    ),
    (
        "k8s.io.api.networking.v1.IngressServiceBackend",
        &[("name", "\"\""), ("port", "{}")],
    ),
    ("k8s.io.api.networking.v1.IngressStatus", &[("loadBalancer", "{}")]),
    (
        "k8s.io.api.networking.v1.NetworkPolicy",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.networking.v1.NetworkPolicyList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.networking.v1.NetworkPolicySpec", &[("podSelector", "{}")]),
    (
        "k8s.io.api.networking.v1.ServiceCIDR",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.networking.v1.ServiceCIDRList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.networking.v1beta1.HTTPIngressPath", &[("backend", "{}")]),
    (
        "k8s.io.api.networking.v1beta1.HTTPIngressRuleValue",
        &[("paths", "null")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IPAddress",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IPAddressList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.networking.v1beta1.Ingress",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    ("k8s.io.api.networking.v1beta1.IngressBackend", &[("servicePort", "0")]),
    (
        "k8s.io.api.networking.v1beta1.IngressClass",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressClassParametersReference",
        &[("kind", "\"\""), ("name", "\"\""), ("scope", "null")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressPortStatus",
        &[("port", "0"), ("protocol", "\"\"")],
    ),
    ("k8s.io.api.networking.v1beta1.IngressStatus", &[("loadBalancer", "{}")]),
    (
        "k8s.io.api.networking.v1beta1.ServiceCIDR",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.networking.v1beta1.ServiceCIDRList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.node.v1.RuntimeClass",
        &[("metadata", "{}"), ("handler", "\"\"")],
    ),
    (
        "k8s.io.api.node.v1.RuntimeClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.node.v1alpha1.RuntimeClass",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.node.v1alpha1.RuntimeClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.node.v1alpha1.RuntimeClassSpec",
        &[("runtimeHandler", "\"\"")],
    ),
    (
        "k8s.io.api.node.v1beta1.RuntimeClass",
        &[("metadata", "{}"), ("handler", "\"\"")],
    ),
    (
        "k8s.io.api.node.v1beta1.RuntimeClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.policy.v1.Eviction", &[("metadata", "{}")]),
    (
        "k8s.io.api.policy.v1.PodDisruptionBudget",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.policy.v1.PodDisruptionBudgetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.policy.v1.PodDisruptionBudgetStatus",
        &[
            ("disruptionsAllowed", "0"),
            ("currentHealthy", "0"),
            ("desiredHealthy", "0"),
            ("expectedPods", "0"),
        ],
    ),
    ("k8s.io.api.policy.v1beta1.Eviction", &[("metadata", "{}")]),
    (
        "k8s.io.api.policy.v1beta1.PodDisruptionBudget",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.policy.v1beta1.PodDisruptionBudgetList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.policy.v1beta1.PodDisruptionBudgetStatus",
        &[
            ("disruptionsAllowed", "0"),
            ("currentHealthy", "0"),
            ("desiredHealthy", "0"),
            ("expectedPods", "0"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1.ClusterRole",
        &[("metadata", "{}"), ("rules", "null")],
    ),
    (
        "k8s.io.api.rbac.v1.ClusterRoleBinding",
        &[("metadata", "{}"), ("roleRef", "{}")],
    ),
    (
        "k8s.io.api.rbac.v1.ClusterRoleBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.rbac.v1.ClusterRoleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.rbac.v1.PolicyRule", &[("verbs", "null")]),
    ("k8s.io.api.rbac.v1.Role", &[("metadata", "{}"), ("rules", "null")]),
    (
        "k8s.io.api.rbac.v1.RoleBinding",
        &[("metadata", "{}"), ("roleRef", "{}")],
    ),
    (
        "k8s.io.api.rbac.v1.RoleBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.rbac.v1.RoleList", &[("metadata", "{}"), ("items", "null")]),
    (
        "k8s.io.api.rbac.v1.RoleRef",
        &[("apiGroup", "\"\""), ("kind", "\"\""), ("name", "\"\"")],
    ),
    ("k8s.io.api.rbac.v1.Subject", &[("kind", "\"\""), ("name", "\"\"")]),
    (
        "k8s.io.api.rbac.v1alpha1.ClusterRole",
        &[("metadata", "{}"), ("rules", "null")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.ClusterRoleBinding",
        &[("metadata", "{}"), ("roleRef", "{}")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.ClusterRoleBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.ClusterRoleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.rbac.v1alpha1.PolicyRule", &[("verbs", "null")]),
    (
        "k8s.io.api.rbac.v1alpha1.Role",
        &[("metadata", "{}"), ("rules", "null")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.RoleBinding",
        &[("metadata", "{}"), ("roleRef", "{}")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.RoleBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.RoleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.RoleRef",
        &[("apiGroup", "\"\""), ("kind", "\"\""), ("name", "\"\"")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.Subject",
        &[("kind", "\"\""), ("name", "\"\"")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.ClusterRole",
        &[("metadata", "{}"), ("rules", "null")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.ClusterRoleBinding",
        &[("metadata", "{}"), ("roleRef", "{}")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.ClusterRoleBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.ClusterRoleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.rbac.v1beta1.PolicyRule", &[("verbs", "null")]),
    ("k8s.io.api.rbac.v1beta1.Role", &[("metadata", "{}"), ("rules", "null")]),
    (
        "k8s.io.api.rbac.v1beta1.RoleBinding",
        &[("metadata", "{}"), ("roleRef", "{}")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.RoleBindingList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.RoleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.RoleRef",
        &[("apiGroup", "\"\""), ("kind", "\"\""), ("name", "\"\"")],
    ),
    ("k8s.io.api.rbac.v1beta1.Subject", &[("kind", "\"\""), ("name", "\"\"")]),
    (
        "k8s.io.api.resource.v1.AllocatedDeviceStatus",
        &[
            ("driver", "\"\""),
            ("pool", "\"\""),
            ("device", "\"\""),
            ("conditions", "null"),
        ],
    ),
    ("k8s.io.api.resource.v1.AllocationResult", &[("devices", "{}")]),
    ("k8s.io.api.resource.v1.CELDeviceSelector", &[("expression", "\"\"")]),
    ("k8s.io.api.resource.v1.CapacityRequestPolicy", &[("default", "null")]),
    ("k8s.io.api.resource.v1.Counter", &[("value", "\"0\"")]),
    ("k8s.io.api.resource.v1.CounterSet", &[("name", "\"\"")]),
    ("k8s.io.api.resource.v1.Device", &[("name", "\"\"")]),
    (
        "k8s.io.api.resource.v1.DeviceAllocationConfiguration",
        &[("source", "\"\"")],
    ),
    ("k8s.io.api.resource.v1.DeviceCapacity", &[("value", "\"0\"")]),
    ("k8s.io.api.resource.v1.DeviceClaim", &[("requests", "null")]),
    (
        "k8s.io.api.resource.v1.DeviceClass",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceCounterConsumption",
        &[("counterSet", "\"\"")],
    ),
    ("k8s.io.api.resource.v1.DeviceRequest", &[("name", "\"\"")]),
    (
        "k8s.io.api.resource.v1.DeviceRequestAllocationResult",
        &[
            ("request", "\"\""),
            ("driver", "\"\""),
            ("pool", "\"\""),
            ("device", "\"\""),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceSubRequest",
        &[("name", "\"\""), ("deviceClassName", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceTaint",
        &[("key", "\"\""), ("effect", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceTaintRule",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceTaintRuleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.resource.v1.DeviceTaintRuleSpec", &[("taint", "{}")]),
    (
        "k8s.io.api.resource.v1.ExactDeviceRequest",
        &[("deviceClassName", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1.OpaqueDeviceConfiguration",
        &[("driver", "\"\""), ("parameters", "null")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaim",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimConsumerReference",
        &[("resource", "\"\""), ("name", "\"\""), ("uid", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.resource.v1.ResourceClaimSpec", &[("devices", "{}")]),
    (
        "k8s.io.api.resource.v1.ResourceClaimTemplate",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimTemplateList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimTemplateSpec",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1.ResourcePool",
        &[("name", "\"\""), ("generation", "0"), ("resourceSliceCount", "0")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceSlice",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceSliceList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceSliceSpec",
        &[("driver", "\"\""), ("pool", "{}")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.CELDeviceSelector",
        &[("expression", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.DeviceTaint",
        &[("key", "\"\""), ("effect", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.DeviceTaintRule",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.DeviceTaintRuleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.resource.v1alpha3.DeviceTaintRuleSpec", &[("taint", "{}")]),
    ("k8s.io.api.resource.v1alpha3.PoolStatus", &[("generation", "0")]),
    (
        "k8s.io.api.resource.v1alpha3.ResourcePoolStatusRequest",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.ResourcePoolStatusRequestList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.ResourcePoolStatusRequestSpec",
        &[("driver", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta1.AllocatedDeviceStatus",
        &[
            ("driver", "\"\""),
            ("pool", "\"\""),
            ("device", "\"\""),
            ("conditions", "null"),
        ],
    ),
    ("k8s.io.api.resource.v1beta1.AllocationResult", &[("devices", "{}")]),
    (
        "k8s.io.api.resource.v1beta1.CELDeviceSelector",
        &[("expression", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta1.CapacityRequestPolicy",
        &[("default", "null")],
    ),
    ("k8s.io.api.resource.v1beta1.Counter", &[("value", "\"0\"")]),
    ("k8s.io.api.resource.v1beta1.CounterSet", &[("name", "\"\"")]),
    ("k8s.io.api.resource.v1beta1.Device", &[("name", "\"\"")]),
    (
        "k8s.io.api.resource.v1beta1.DeviceAllocationConfiguration",
        &[("source", "\"\"")],
    ),
    ("k8s.io.api.resource.v1beta1.DeviceCapacity", &[("value", "\"0\"")]),
    ("k8s.io.api.resource.v1beta1.DeviceClaim", &[("requests", "null")]),
    (
        "k8s.io.api.resource.v1beta1.DeviceClass",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceCounterConsumption",
        &[("counterSet", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceRequest",
        &[("name", "\"\""), ("deviceClassName", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceRequestAllocationResult",
        &[
            ("request", "\"\""),
            ("driver", "\"\""),
            ("pool", "\"\""),
            ("device", "\"\""),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceSubRequest",
        &[("name", "\"\""), ("deviceClassName", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceTaint",
        &[("key", "\"\""), ("effect", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta1.OpaqueDeviceConfiguration",
        &[("driver", "\"\""), ("parameters", "null")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaim",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimConsumerReference",
        &[("resource", "\"\""), ("name", "\"\""), ("uid", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.resource.v1beta1.ResourceClaimSpec", &[("devices", "{}")]),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimTemplate",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimTemplateList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimTemplateSpec",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourcePool",
        &[("name", "\"\""), ("generation", "0"), ("resourceSliceCount", "0")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceSlice",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceSliceList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceSliceSpec",
        &[("driver", "\"\""), ("pool", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta2.AllocatedDeviceStatus",
        &[
            ("driver", "\"\""),
            ("pool", "\"\""),
            ("device", "\"\""),
            ("conditions", "null"),
        ],
    ),
    ("k8s.io.api.resource.v1beta2.AllocationResult", &[("devices", "{}")]),
    (
        "k8s.io.api.resource.v1beta2.CELDeviceSelector",
        &[("expression", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta2.CapacityRequestPolicy",
        &[("default", "null")],
    ),
    ("k8s.io.api.resource.v1beta2.Counter", &[("value", "\"0\"")]),
    ("k8s.io.api.resource.v1beta2.CounterSet", &[("name", "\"\"")]),
    ("k8s.io.api.resource.v1beta2.Device", &[("name", "\"\"")]),
    (
        "k8s.io.api.resource.v1beta2.DeviceAllocationConfiguration",
        &[("source", "\"\"")],
    ),
    ("k8s.io.api.resource.v1beta2.DeviceCapacity", &[("value", "\"0\"")]),
    ("k8s.io.api.resource.v1beta2.DeviceClaim", &[("requests", "null")]),
    (
        "k8s.io.api.resource.v1beta2.DeviceClass",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceCounterConsumption",
        &[("counterSet", "\"\"")],
    ),
    ("k8s.io.api.resource.v1beta2.DeviceRequest", &[("name", "\"\"")]),
    (
        "k8s.io.api.resource.v1beta2.DeviceRequestAllocationResult",
        &[
            ("request", "\"\""),
            ("driver", "\"\""),
            ("pool", "\"\""),
            ("device", "\"\""),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceSubRequest",
        &[("name", "\"\""), ("deviceClassName", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceTaint",
        &[("key", "\"\""), ("effect", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceTaintRule",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceTaintRuleList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.resource.v1beta2.DeviceTaintRuleSpec", &[("taint", "{}")]),
    (
        "k8s.io.api.resource.v1beta2.ExactDeviceRequest",
        &[("deviceClassName", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta2.OpaqueDeviceConfiguration",
        &[("driver", "\"\""), ("parameters", "null")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaim",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimConsumerReference",
        &[("resource", "\"\""), ("name", "\"\""), ("uid", "\"\"")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.resource.v1beta2.ResourceClaimSpec", &[("devices", "{}")]),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimTemplate",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimTemplateList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimTemplateSpec",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourcePool",
        &[("name", "\"\""), ("generation", "0"), ("resourceSliceCount", "0")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceSlice",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceSliceList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceSliceSpec",
        &[("driver", "\"\""), ("pool", "{}")],
    ),
    (
        "k8s.io.api.scheduling.v1.PriorityClass",
        &[("metadata", "{}"), ("value", "0")],
    ),
    (
        "k8s.io.api.scheduling.v1.PriorityClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositeGangSchedulingPolicy",
        &[("minGroupCount", "0")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroup",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupSpec",
        &[("workloadRef", "null"), ("schedulingPolicy", "{}")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupTemplate",
        &[("name", "\"\""), ("schedulingPolicy", "{}")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.GangSchedulingPolicy",
        &[("minCount", "0")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroup",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupResourceClaim",
        &[("name", "\"\"")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupResourceClaimStatus",
        &[("name", "\"\"")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupSpec",
        &[("schedulingPolicy", "{}")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupTemplate",
        &[
            ("name", "\"\""),
            ("schedulingPolicy", "{}"),
            ("schedulingConstraints", "null"),
        ],
    ),
    ("k8s.io.api.scheduling.v1alpha3.TopologyConstraint", &[("key", "\"\"")]),
    (
        "k8s.io.api.scheduling.v1alpha3.TypedLocalObjectReference",
        &[("kind", "\"\""), ("name", "\"\"")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.Workload",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.WorkloadList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.WorkloadReference",
        &[("workloadName", "\"\""), ("templateName", "\"\"")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.WorkloadSpec",
        &[("podGroupTemplates", "null")],
    ),
    (
        "k8s.io.api.scheduling.v1beta1.PriorityClass",
        &[("metadata", "{}"), ("value", "0")],
    ),
    (
        "k8s.io.api.scheduling.v1beta1.PriorityClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.storage.v1.CSIDriver", &[("metadata", "{}"), ("spec", "{}")]),
    (
        "k8s.io.api.storage.v1.CSIDriverList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.storage.v1.CSINode", &[("metadata", "{}"), ("spec", "{}")]),
    (
        "k8s.io.api.storage.v1.CSINodeDriver",
        &[("name", "\"\""), ("nodeID", "\"\""), ("topologyKeys", "null")],
    ),
    (
        "k8s.io.api.storage.v1.CSINodeList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.storage.v1.CSINodeSpec", &[("drivers", "null")]),
    (
        "k8s.io.api.storage.v1.CSIStorageCapacity",
        &[("metadata", "{}"), ("storageClassName", "\"\"")],
    ),
    (
        "k8s.io.api.storage.v1.CSIStorageCapacityList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.storage.v1.StorageClass",
        &[("metadata", "{}"), ("provisioner", "\"\"")],
    ),
    (
        "k8s.io.api.storage.v1.StorageClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.storage.v1.TokenRequest", &[("audience", "\"\"")]),
    (
        "k8s.io.api.storage.v1.VolumeAttachment",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.storage.v1.VolumeAttachmentList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.storage.v1.VolumeAttachmentSpec",
        &[("attacher", "\"\""), ("source", "{}"), ("nodeName", "\"\"")],
    ),
    ("k8s.io.api.storage.v1.VolumeAttachmentStatus", &[("attached", "false")]),
    (
        "k8s.io.api.storage.v1.VolumeAttributesClass",
        &[("metadata", "{}"), ("driverName", "\"\"")],
    ),
    (
        "k8s.io.api.storage.v1.VolumeAttributesClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.storage.v1.VolumeError", &[("time", "null")]),
    (
        "k8s.io.api.storage.v1alpha1.CSIStorageCapacity",
        &[("metadata", "{}"), ("storageClassName", "\"\"")],
    ),
    (
        "k8s.io.api.storage.v1alpha1.CSIStorageCapacityList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttachment",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttachmentList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttachmentSpec",
        &[("attacher", "\"\""), ("source", "{}"), ("nodeName", "\"\"")],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttachmentStatus",
        &[("attached", "false")],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttributesClass",
        &[("metadata", "{}"), ("driverName", "\"\"")],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttributesClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.storage.v1alpha1.VolumeError", &[("time", "null")]),
    (
        "k8s.io.api.storage.v1beta1.CSIDriver",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSIDriverList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSINode",
        &[("metadata", "{}"), ("spec", "{}")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSINodeDriver",
        &[("name", "\"\""), ("nodeID", "\"\""), ("topologyKeys", "null")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSINodeList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.storage.v1beta1.CSINodeSpec", &[("drivers", "null")]),
    (
        "k8s.io.api.storage.v1beta1.CSIStorageCapacity",
        &[("metadata", "{}"), ("storageClassName", "\"\"")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSIStorageCapacityList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.storage.v1beta1.StorageClass",
        &[("metadata", "{}"), ("provisioner", "\"\"")],
    ),
    (
        "k8s.io.api.storage.v1beta1.StorageClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.storage.v1beta1.TokenRequest", &[("audience", "\"\"")]),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttachment",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttachmentList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttachmentSpec",
        &[("attacher", "\"\""), ("source", "{}"), ("nodeName", "\"\"")],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttachmentStatus",
        &[("attached", "false")],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttributesClass",
        &[("metadata", "{}"), ("driverName", "\"\"")],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttributesClassList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.api.storage.v1beta1.VolumeError", &[("time", "null")]),
    (
        "k8s.io.api.storagemigration.v1.StorageVersionMigration",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.storagemigration.v1.StorageVersionMigrationList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.storagemigration.v1.StorageVersionMigrationSpec",
        &[("resource", "{}")],
    ),
    (
        "k8s.io.api.storagemigration.v1beta1.StorageVersionMigration",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.api.storagemigration.v1beta1.StorageVersionMigrationList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.api.storagemigration.v1beta1.StorageVersionMigrationSpec",
        &[("resource", "{}")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ConversionRequest",
        &[("uid", "\"\""), ("desiredAPIVersion", "\"\""), ("objects", "null")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ConversionResponse",
        &[("uid", "\"\""), ("convertedObjects", "null"), ("result", "{}")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition",
        &[("name", "\"\""), ("type", "\"\""), ("jsonPath", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion",
        &[("strategy", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames",
        &[("plural", "\"\""), ("kind", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec",
        &[
            ("group", "\"\""),
            ("names", "{}"),
            ("scope", "\"\""),
            ("versions", "null"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus",
        &[
            ("conditions", "null"),
            ("acceptedNames", "{}"),
            ("storedVersions", "null"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion",
        &[("name", "\"\""), ("served", "false"), ("storage", "false")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceScale",
        &[("specReplicasPath", "\"\""), ("statusReplicasPath", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.SelectableField",
        &[("jsonPath", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ServiceReference",
        &[("namespace", "\"\""), ("name", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ValidationRule",
        &[("rule", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.WebhookConversion",
        &[("conversionReviewVersions", "null")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ConversionRequest",
        &[("uid", "\"\""), ("desiredAPIVersion", "\"\""), ("objects", "null")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ConversionResponse",
        &[("uid", "\"\""), ("convertedObjects", "null"), ("result", "{}")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceColumnDefinition",
        &[("name", "\"\""), ("type", "\"\""), ("JSONPath", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceConversion",
        &[("strategy", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinition",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionNames",
        &[("plural", "\"\""), ("kind", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionSpec",
        &[("group", "\"\""), ("names", "{}"), ("scope", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionStatus",
        &[
            ("conditions", "null"),
            ("acceptedNames", "{}"),
            ("storedVersions", "null"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionVersion",
        &[("name", "\"\""), ("served", "false"), ("storage", "false")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceSubresourceScale",
        &[("specReplicasPath", "\"\""), ("statusReplicasPath", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.SelectableField",
        &[("jsonPath", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ServiceReference",
        &[("namespace", "\"\""), ("name", "\"\"")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ValidationRule",
        &[("rule", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIGroup",
        &[("name", "\"\""), ("versions", "null"), ("preferredVersion", "{}")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIGroupList",
        &[("groups", "null")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIResource",
        &[
            ("name", "\"\""),
            ("singularName", "\"\""),
            ("namespaced", "false"),
            ("kind", "\"\""),
            ("verbs", "null"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIResourceList",
        &[("groupVersion", "\"\""), ("resources", "null")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIVersions",
        &[("versions", "null"), ("serverAddressByClientCIDRs", "null")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ApplyOptions",
        &[("force", "false"), ("fieldManager", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.Condition",
        &[
            ("type", "\"\""),
            ("status", "\"\""),
            ("lastTransitionTime", "null"),
            ("reason", "\"\""),
            ("message", "\"\""),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement",
        &[("key", "\"\""), ("operator", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupKind",
        &[("group", "\"\""), ("kind", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupResource",
        &[("group", "\"\""), ("resource", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersion",
        &[("group", "\"\""), ("version", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery",
        &[("groupVersion", "\"\""), ("version", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionKind",
        &[("group", "\"\""), ("version", "\"\""), ("kind", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionResource",
        &[("group", "\"\""), ("version", "\"\""), ("resource", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",
        &[("key", "\"\""), ("operator", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.List",
        &[("metadata", "{}"), ("items", "null")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        &[("creationTimestamp", "null")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference",
        &[
            ("apiVersion", "\"\""),
            ("kind", "\"\""),
            ("name", "\"\""),
            ("uid", "\"\""),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata",
        &[("metadata", "{}")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList",
        &[("metadata", "{}"), ("items", "null")],
    ),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.RootPaths", &[("paths", "null")]),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR",
        &[("clientCIDR", "\"\""), ("serverAddress", "\"\"")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ShardInfo",
        &[("selector", "\"\"")],
    ),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.Status", &[("metadata", "{}")]),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.Timestamp",
        &[("seconds", "0"), ("nanos", "0")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent",
        &[("type", "\"\""), ("object", "null")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList",
        &[("metadata", "{}"), ("items", "null")],
    ),
];

/// Fields whose JSON name is not their proto name: (message, proto name, JSON name).
pub(crate) const RENAMED: &[(&str, &str, &str)] = &[
    (
        "k8s.io.api.admissionregistration.v1.MutatingWebhookConfiguration",
        "Webhooks",
        "webhooks",
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration",
        "Webhooks",
        "webhooks",
    ),
    (
        "k8s.io.api.admissionregistration.v1.Validation",
        "Expression",
        "expression",
    ),
    (
        "k8s.io.api.admissionregistration.v1.Variable",
        "Expression",
        "expression",
    ),
    ("k8s.io.api.admissionregistration.v1.Variable", "Name", "name"),
    (
        "k8s.io.api.admissionregistration.v1alpha1.Validation",
        "Expression",
        "expression",
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.Variable",
        "Expression",
        "expression",
    ),
    ("k8s.io.api.admissionregistration.v1alpha1.Variable", "Name", "name"),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingWebhookConfiguration",
        "Webhooks",
        "webhooks",
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingWebhookConfiguration",
        "Webhooks",
        "webhooks",
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.Validation",
        "Expression",
        "expression",
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.Variable",
        "Expression",
        "expression",
    ),
    ("k8s.io.api.admissionregistration.v1beta1.Variable", "Name", "name"),
    ("k8s.io.api.authentication.v1.BoundObjectReference", "uID", "uid"),
    (
        "k8s.io.api.networking.v1.IngressClassParametersReference",
        "aPIGroup",
        "apiGroup",
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressClassParametersReference",
        "aPIGroup",
        "apiGroup",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        "ref",
        "$ref",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        "schema",
        "$schema",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        "xKubernetesEmbeddedResource",
        "x-kubernetes-embedded-resource",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        "xKubernetesIntOrString",
        "x-kubernetes-int-or-string",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        "xKubernetesListMapKeys",
        "x-kubernetes-list-map-keys",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        "xKubernetesListType",
        "x-kubernetes-list-type",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        "xKubernetesMapType",
        "x-kubernetes-map-type",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        "xKubernetesPreserveUnknownFields",
        "x-kubernetes-preserve-unknown-fields",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        "xKubernetesValidations",
        "x-kubernetes-validations",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        "ref",
        "$ref",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        "schema",
        "$schema",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        "xKubernetesEmbeddedResource",
        "x-kubernetes-embedded-resource",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        "xKubernetesIntOrString",
        "x-kubernetes-int-or-string",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        "xKubernetesListMapKeys",
        "x-kubernetes-list-map-keys",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        "xKubernetesListType",
        "x-kubernetes-list-type",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        "xKubernetesMapType",
        "x-kubernetes-map-type",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        "xKubernetesPreserveUnknownFields",
        "x-kubernetes-preserve-unknown-fields",
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        "xKubernetesValidations",
        "x-kubernetes-validations",
    ),
];

/// Embedded Go structs, whose fields JSON writes into the embedding object:
/// (message, proto field).
pub(crate) const INLINED: &[(&str, &str)] = &[
    (
        "k8s.io.api.admissionregistration.v1.NamedRuleWithOperations",
        "ruleWithOperations",
    ),
    ("k8s.io.api.admissionregistration.v1.RuleWithOperations", "rule"),
    (
        "k8s.io.api.admissionregistration.v1alpha1.NamedRuleWithOperations",
        "ruleWithOperations",
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.NamedRuleWithOperations",
        "ruleWithOperations",
    ),
    ("k8s.io.api.core.v1.ConfigMapEnvSource", "localObjectReference"),
    ("k8s.io.api.core.v1.ConfigMapKeySelector", "localObjectReference"),
    ("k8s.io.api.core.v1.ConfigMapProjection", "localObjectReference"),
    ("k8s.io.api.core.v1.ConfigMapVolumeSource", "localObjectReference"),
    ("k8s.io.api.core.v1.PersistentVolumeSpec", "persistentVolumeSource"),
    ("k8s.io.api.core.v1.Probe", "handler"),
    ("k8s.io.api.core.v1.SecretEnvSource", "localObjectReference"),
    ("k8s.io.api.core.v1.SecretKeySelector", "localObjectReference"),
    ("k8s.io.api.core.v1.SecretProjection", "localObjectReference"),
    ("k8s.io.api.core.v1.Volume", "volumeSource"),
    ("k8s.io.api.extensions.v1beta1.IngressRule", "ingressRuleValue"),
    ("k8s.io.api.networking.v1.IngressRule", "ingressRuleValue"),
    ("k8s.io.api.networking.v1beta1.IngressRule", "ingressRuleValue"),
    (
        "k8s.io.api.resource.v1.DeviceAllocationConfiguration",
        "deviceConfiguration",
    ),
    ("k8s.io.api.resource.v1.DeviceClaimConfiguration", "deviceConfiguration"),
    ("k8s.io.api.resource.v1.DeviceClassConfiguration", "deviceConfiguration"),
    (
        "k8s.io.api.resource.v1beta1.DeviceAllocationConfiguration",
        "deviceConfiguration",
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceClaimConfiguration",
        "deviceConfiguration",
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceClassConfiguration",
        "deviceConfiguration",
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceAllocationConfiguration",
        "deviceConfiguration",
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceClaimConfiguration",
        "deviceConfiguration",
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceClassConfiguration",
        "deviceConfiguration",
    ),
    ("k8s.io.apimachinery.pkg.runtime.Unknown", "typeMeta"),
];

/// The proto package of each API group version (`""` is the core group).
pub(crate) const GROUP_PACKAGES: &[(&str, &str, &str)] = &[
    ("", "v1", "k8s.io.api.core.v1"),
    ("admission.k8s.io", "v1", "k8s.io.api.admission.v1"),
    ("admission.k8s.io", "v1beta1", "k8s.io.api.admission.v1beta1"),
    (
        "admissionregistration.k8s.io",
        "v1",
        "k8s.io.api.admissionregistration.v1",
    ),
    (
        "admissionregistration.k8s.io",
        "v1alpha1",
        "k8s.io.api.admissionregistration.v1alpha1",
    ),
    (
        "admissionregistration.k8s.io",
        "v1beta1",
        "k8s.io.api.admissionregistration.v1beta1",
    ),
    ("apidiscovery.k8s.io", "v2", "k8s.io.api.apidiscovery.v2"),
    ("apidiscovery.k8s.io", "v2beta1", "k8s.io.api.apidiscovery.v2beta1"),
    (
        "apiextensions.k8s.io",
        "v1",
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1",
    ),
    (
        "apiextensions.k8s.io",
        "v1beta1",
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1",
    ),
    ("apps", "v1", "k8s.io.api.apps.v1"),
    ("apps", "v1beta1", "k8s.io.api.apps.v1beta1"),
    ("apps", "v1beta2", "k8s.io.api.apps.v1beta2"),
    ("authentication.k8s.io", "v1", "k8s.io.api.authentication.v1"),
    (
        "authentication.k8s.io",
        "v1alpha1",
        "k8s.io.api.authentication.v1alpha1",
    ),
    ("authentication.k8s.io", "v1beta1", "k8s.io.api.authentication.v1beta1"),
    ("authorization.k8s.io", "v1", "k8s.io.api.authorization.v1"),
    ("authorization.k8s.io", "v1beta1", "k8s.io.api.authorization.v1beta1"),
    ("autoscaling", "v1", "k8s.io.api.autoscaling.v1"),
    ("autoscaling", "v2", "k8s.io.api.autoscaling.v2"),
    ("batch", "v1", "k8s.io.api.batch.v1"),
    ("batch", "v1beta1", "k8s.io.api.batch.v1beta1"),
    ("certificates.k8s.io", "v1", "k8s.io.api.certificates.v1"),
    ("certificates.k8s.io", "v1alpha1", "k8s.io.api.certificates.v1alpha1"),
    ("certificates.k8s.io", "v1beta1", "k8s.io.api.certificates.v1beta1"),
    ("coordination.k8s.io", "v1", "k8s.io.api.coordination.v1"),
    ("coordination.k8s.io", "v1alpha2", "k8s.io.api.coordination.v1alpha2"),
    ("coordination.k8s.io", "v1beta1", "k8s.io.api.coordination.v1beta1"),
    ("discovery.k8s.io", "v1", "k8s.io.api.discovery.v1"),
    ("discovery.k8s.io", "v1beta1", "k8s.io.api.discovery.v1beta1"),
    ("events.k8s.io", "v1", "k8s.io.api.events.v1"),
    ("events.k8s.io", "v1beta1", "k8s.io.api.events.v1beta1"),
    ("extensions", "v1beta1", "k8s.io.api.extensions.v1beta1"),
    ("flowcontrol.apiserver.k8s.io", "v1", "k8s.io.api.flowcontrol.v1"),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1beta1",
        "k8s.io.api.flowcontrol.v1beta1",
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1beta2",
        "k8s.io.api.flowcontrol.v1beta2",
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1beta3",
        "k8s.io.api.flowcontrol.v1beta3",
    ),
    ("imagepolicy.k8s.io", "v1alpha1", "k8s.io.api.imagepolicy.v1alpha1"),
    (
        "internal.apiserver.k8s.io",
        "v1alpha1",
        "k8s.io.api.apiserverinternal.v1alpha1",
    ),
    ("meta.k8s.io", "v1", "k8s.io.apimachinery.pkg.apis.meta.v1"),
    ("meta.k8s.io", "v1beta1", "k8s.io.apimachinery.pkg.apis.meta.v1beta1"),
    ("networking.k8s.io", "v1", "k8s.io.api.networking.v1"),
    ("networking.k8s.io", "v1beta1", "k8s.io.api.networking.v1beta1"),
    ("node.k8s.io", "v1", "k8s.io.api.node.v1"),
    ("node.k8s.io", "v1alpha1", "k8s.io.api.node.v1alpha1"),
    ("node.k8s.io", "v1beta1", "k8s.io.api.node.v1beta1"),
    ("policy", "v1", "k8s.io.api.policy.v1"),
    ("policy", "v1beta1", "k8s.io.api.policy.v1beta1"),
    ("rbac.authorization.k8s.io", "v1", "k8s.io.api.rbac.v1"),
    ("rbac.authorization.k8s.io", "v1alpha1", "k8s.io.api.rbac.v1alpha1"),
    ("rbac.authorization.k8s.io", "v1beta1", "k8s.io.api.rbac.v1beta1"),
    ("resource.k8s.io", "v1", "k8s.io.api.resource.v1"),
    ("resource.k8s.io", "v1alpha3", "k8s.io.api.resource.v1alpha3"),
    ("resource.k8s.io", "v1beta1", "k8s.io.api.resource.v1beta1"),
    ("resource.k8s.io", "v1beta2", "k8s.io.api.resource.v1beta2"),
    ("scheduling.k8s.io", "v1", "k8s.io.api.scheduling.v1"),
    ("scheduling.k8s.io", "v1alpha3", "k8s.io.api.scheduling.v1alpha3"),
    ("scheduling.k8s.io", "v1beta1", "k8s.io.api.scheduling.v1beta1"),
    ("storage.k8s.io", "v1", "k8s.io.api.storage.v1"),
    ("storage.k8s.io", "v1alpha1", "k8s.io.api.storage.v1alpha1"),
    ("storage.k8s.io", "v1beta1", "k8s.io.api.storage.v1beta1"),
    ("storagemigration.k8s.io", "v1", "k8s.io.api.storagemigration.v1"),
    (
        "storagemigration.k8s.io",
        "v1beta1",
        "k8s.io.api.storagemigration.v1beta1",
    ),
];
