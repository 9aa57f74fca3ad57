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

/// Each field's Go type as `reflect` prints it once a pointer is followed, by proto
/// message: (JSON name, type), as `encoding/json` names it in a type error.
pub(crate) const GO_TYPES: &[(&str, &[(&str, &str)])] = &[
    (
        "k8s.io.api.admission.v1.AdmissionRequest",
        &[
            ("uid", "types.UID"),
            ("kind", "v1.GroupVersionKind"),
            ("resource", "v1.GroupVersionResource"),
            ("subResource", "string"),
            ("requestKind", "v1.GroupVersionKind"),
            ("requestResource", "v1.GroupVersionResource"),
            ("requestSubResource", "string"),
            ("name", "string"),
            ("namespace", "string"),
            ("operation", "v1.Operation"),
            ("userInfo", "v1.UserInfo"),
            ("object", "runtime.RawExtension"),
            ("oldObject", "runtime.RawExtension"),
            ("dryRun", "bool"),
            ("options", "runtime.RawExtension"),
        ],
    ),
    (
        "k8s.io.api.admission.v1.AdmissionResponse",
        &[
            ("uid", "types.UID"),
            ("allowed", "bool"),
            ("status", "v1.Status"),
            ("patch", "[]uint8"),
            ("patchType", "v1.PatchType"),
            ("auditAnnotations", "map[string]string"),
            ("warnings", "[]string"),
        ],
    ),
    (
        "k8s.io.api.admission.v1.AdmissionReview",
        &[("request", "v1.AdmissionRequest"), ("response", "v1.AdmissionResponse")],
    ),
    (
        "k8s.io.api.admission.v1beta1.AdmissionRequest",
        &[
            ("uid", "types.UID"),
            ("kind", "v1.GroupVersionKind"),
            ("resource", "v1.GroupVersionResource"),
            ("subResource", "string"),
            ("requestKind", "v1.GroupVersionKind"),
            ("requestResource", "v1.GroupVersionResource"),
            ("requestSubResource", "string"),
            ("name", "string"),
            ("namespace", "string"),
            ("operation", "v1beta1.Operation"),
            ("userInfo", "v1.UserInfo"),
            ("object", "runtime.RawExtension"),
            ("oldObject", "runtime.RawExtension"),
            ("dryRun", "bool"),
            ("options", "runtime.RawExtension"),
        ],
    ),
    (
        "k8s.io.api.admission.v1beta1.AdmissionResponse",
        &[
            ("uid", "types.UID"),
            ("allowed", "bool"),
            ("status", "v1.Status"),
            ("patch", "[]uint8"),
            ("patchType", "v1beta1.PatchType"),
            ("auditAnnotations", "map[string]string"),
            ("warnings", "[]string"),
        ],
    ),
    (
        "k8s.io.api.admission.v1beta1.AdmissionReview",
        &[
            ("request", "v1beta1.AdmissionRequest"),
            ("response", "v1beta1.AdmissionResponse"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ApplyConfiguration",
        &[("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.AuditAnnotation",
        &[("key", "string"), ("valueExpression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ExpressionWarning",
        &[("fieldRef", "string"), ("warning", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.JSONPatch",
        &[("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MatchCondition",
        &[("name", "string"), ("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MatchResources",
        &[
            ("namespaceSelector", "v1.LabelSelector"),
            ("objectSelector", "v1.LabelSelector"),
            ("resourceRules", "[]v1.NamedRuleWithOperations"),
            ("excludeResourceRules", "[]v1.NamedRuleWithOperations"),
            ("matchPolicy", "v1.MatchPolicyType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicy",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.MutatingAdmissionPolicySpec"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicyBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.MutatingAdmissionPolicyBindingSpec"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicyBindingList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1.MutatingAdmissionPolicyBinding"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicyBindingSpec",
        &[
            ("policyName", "string"),
            ("paramRef", "v1.ParamRef"),
            ("matchResources", "v1.MatchResources"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicyList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.MutatingAdmissionPolicy")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicySpec",
        &[
            ("paramKind", "v1.ParamKind"),
            ("matchConstraints", "v1.MatchResources"),
            ("variables", "[]v1.Variable"),
            ("mutations", "[]v1.Mutation"),
            ("failurePolicy", "v1.FailurePolicyType"),
            ("matchConditions", "[]v1.MatchCondition"),
            ("reinvocationPolicy", "v1.ReinvocationPolicyType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingWebhook",
        &[
            ("name", "string"),
            ("clientConfig", "v1.WebhookClientConfig"),
            ("rules", "[]v1.RuleWithOperations"),
            ("failurePolicy", "v1.FailurePolicyType"),
            ("matchPolicy", "v1.MatchPolicyType"),
            ("namespaceSelector", "v1.LabelSelector"),
            ("objectSelector", "v1.LabelSelector"),
            ("sideEffects", "v1.SideEffectClass"),
            ("timeoutSeconds", "int32"),
            ("admissionReviewVersions", "[]string"),
            ("reinvocationPolicy", "v1.ReinvocationPolicyType"),
            ("matchConditions", "[]v1.MatchCondition"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingWebhookConfiguration",
        &[("metadata", "v1.ObjectMeta"), ("webhooks", "[]v1.MutatingWebhook")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.MutatingWebhookConfigurationList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1.MutatingWebhookConfiguration"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.Mutation",
        &[
            ("patchType", "v1.PatchType"),
            ("applyConfiguration", "v1.ApplyConfiguration"),
            ("jsonPatch", "v1.JSONPatch"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.NamedRuleWithOperations",
        &[("resourceNames", "[]string"), ("operations", "[]v1.OperationType")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ParamKind",
        &[("apiVersion", "string"), ("kind", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ParamRef",
        &[
            ("name", "string"),
            ("namespace", "string"),
            ("selector", "v1.LabelSelector"),
            ("parameterNotFoundAction", "v1.ParameterNotFoundActionType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.Rule",
        &[
            ("apiGroups", "[]string"),
            ("apiVersions", "[]string"),
            ("resources", "[]string"),
            ("scope", "v1.ScopeType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.RuleWithOperations",
        &[
            ("operations", "[]v1.OperationType"),
            ("apiGroups", "[]string"),
            ("apiVersions", "[]string"),
            ("resources", "[]string"),
            ("scope", "v1.ScopeType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ServiceReference",
        &[
            ("namespace", "string"),
            ("name", "string"),
            ("path", "string"),
            ("port", "int32"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.TypeChecking",
        &[("expressionWarnings", "[]v1.ExpressionWarning")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicy",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.ValidatingAdmissionPolicySpec"),
            ("status", "v1.ValidatingAdmissionPolicyStatus"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.ValidatingAdmissionPolicyBindingSpec"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1.ValidatingAdmissionPolicyBinding"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec",
        &[
            ("policyName", "string"),
            ("paramRef", "v1.ParamRef"),
            ("matchResources", "v1.MatchResources"),
            ("validationActions", "[]v1.ValidationAction"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ValidatingAdmissionPolicy")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicySpec",
        &[
            ("paramKind", "v1.ParamKind"),
            ("matchConstraints", "v1.MatchResources"),
            ("validations", "[]v1.Validation"),
            ("failurePolicy", "v1.FailurePolicyType"),
            ("auditAnnotations", "[]v1.AuditAnnotation"),
            ("matchConditions", "[]v1.MatchCondition"),
            ("variables", "[]v1.Variable"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus",
        &[
            ("observedGeneration", "int64"),
            ("typeChecking", "v1.TypeChecking"),
            ("conditions", "[]v1.Condition"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingWebhook",
        &[
            ("name", "string"),
            ("clientConfig", "v1.WebhookClientConfig"),
            ("rules", "[]v1.RuleWithOperations"),
            ("failurePolicy", "v1.FailurePolicyType"),
            ("matchPolicy", "v1.MatchPolicyType"),
            ("namespaceSelector", "v1.LabelSelector"),
            ("objectSelector", "v1.LabelSelector"),
            ("sideEffects", "v1.SideEffectClass"),
            ("timeoutSeconds", "int32"),
            ("admissionReviewVersions", "[]string"),
            ("matchConditions", "[]v1.MatchCondition"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration",
        &[("metadata", "v1.ObjectMeta"), ("webhooks", "[]v1.ValidatingWebhook")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.ValidatingWebhookConfigurationList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1.ValidatingWebhookConfiguration"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.Validation",
        &[
            ("expression", "string"),
            ("message", "string"),
            ("reason", "v1.StatusReason"),
            ("messageExpression", "string"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1.Variable",
        &[("name", "string"), ("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1.WebhookClientConfig",
        &[
            ("url", "string"),
            ("service", "v1.ServiceReference"),
            ("caBundle", "[]uint8"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ApplyConfiguration",
        &[("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.AuditAnnotation",
        &[("key", "string"), ("valueExpression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ExpressionWarning",
        &[("fieldRef", "string"), ("warning", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.JSONPatch",
        &[("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MatchResources",
        &[
            ("namespaceSelector", "v1.LabelSelector"),
            ("objectSelector", "v1.LabelSelector"),
            ("resourceRules", "[]v1alpha1.NamedRuleWithOperations"),
            ("excludeResourceRules", "[]v1alpha1.NamedRuleWithOperations"),
            ("matchPolicy", "v1alpha1.MatchPolicyType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicy",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha1.MutatingAdmissionPolicySpec"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha1.MutatingAdmissionPolicyBindingSpec"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1alpha1.MutatingAdmissionPolicyBinding"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingSpec",
        &[
            ("policyName", "string"),
            ("paramRef", "v1alpha1.ParamRef"),
            ("matchResources", "v1alpha1.MatchResources"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1alpha1.MutatingAdmissionPolicy"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec",
        &[
            ("paramKind", "v1alpha1.ParamKind"),
            ("matchConstraints", "v1alpha1.MatchResources"),
            ("variables", "[]v1alpha1.Variable"),
            ("mutations", "[]v1alpha1.Mutation"),
            ("failurePolicy", "v1alpha1.FailurePolicyType"),
            ("matchConditions", "[]v1alpha1.MatchCondition"),
            ("reinvocationPolicy", "v1alpha1.ReinvocationPolicyType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.Mutation",
        &[
            ("patchType", "v1alpha1.PatchType"),
            ("applyConfiguration", "v1alpha1.ApplyConfiguration"),
            ("jsonPatch", "v1alpha1.JSONPatch"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.NamedRuleWithOperations",
        &[("resourceNames", "[]string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ParamKind",
        &[("apiVersion", "string"), ("kind", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ParamRef",
        &[
            ("name", "string"),
            ("namespace", "string"),
            ("selector", "v1.LabelSelector"),
            ("parameterNotFoundAction", "v1alpha1.ParameterNotFoundActionType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.TypeChecking",
        &[("expressionWarnings", "[]v1alpha1.ExpressionWarning")],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicy",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha1.ValidatingAdmissionPolicySpec"),
            ("status", "v1alpha1.ValidatingAdmissionPolicyStatus"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha1.ValidatingAdmissionPolicyBindingSpec"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyBindingList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1alpha1.ValidatingAdmissionPolicyBinding"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyBindingSpec",
        &[
            ("policyName", "string"),
            ("paramRef", "v1alpha1.ParamRef"),
            ("matchResources", "v1alpha1.MatchResources"),
            ("validationActions", "[]v1alpha1.ValidationAction"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1alpha1.ValidatingAdmissionPolicy"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicySpec",
        &[
            ("paramKind", "v1alpha1.ParamKind"),
            ("matchConstraints", "v1alpha1.MatchResources"),
            ("validations", "[]v1alpha1.Validation"),
            ("failurePolicy", "v1alpha1.FailurePolicyType"),
            ("auditAnnotations", "[]v1alpha1.AuditAnnotation"),
            ("matchConditions", "[]v1alpha1.MatchCondition"),
            ("variables", "[]v1alpha1.Variable"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyStatus",
        &[
            ("observedGeneration", "int64"),
            ("typeChecking", "v1alpha1.TypeChecking"),
            ("conditions", "[]v1.Condition"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.Validation",
        &[
            ("expression", "string"),
            ("message", "string"),
            ("reason", "v1.StatusReason"),
            ("messageExpression", "string"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1alpha1.Variable",
        &[("name", "string"), ("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ApplyConfiguration",
        &[("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.AuditAnnotation",
        &[("key", "string"), ("valueExpression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ExpressionWarning",
        &[("fieldRef", "string"), ("warning", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.JSONPatch",
        &[("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MatchCondition",
        &[("name", "string"), ("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MatchResources",
        &[
            ("namespaceSelector", "v1.LabelSelector"),
            ("objectSelector", "v1.LabelSelector"),
            ("resourceRules", "[]v1beta1.NamedRuleWithOperations"),
            ("excludeResourceRules", "[]v1beta1.NamedRuleWithOperations"),
            ("matchPolicy", "v1beta1.MatchPolicyType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicy",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.MutatingAdmissionPolicySpec"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.MutatingAdmissionPolicyBindingSpec"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBindingList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.MutatingAdmissionPolicyBinding"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBindingSpec",
        &[
            ("policyName", "string"),
            ("paramRef", "v1beta1.ParamRef"),
            ("matchResources", "v1beta1.MatchResources"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicyList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.MutatingAdmissionPolicy"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicySpec",
        &[
            ("paramKind", "v1beta1.ParamKind"),
            ("matchConstraints", "v1beta1.MatchResources"),
            ("variables", "[]v1beta1.Variable"),
            ("mutations", "[]v1beta1.Mutation"),
            ("failurePolicy", "v1beta1.FailurePolicyType"),
            ("matchConditions", "[]v1beta1.MatchCondition"),
            ("reinvocationPolicy", "v1beta1.ReinvocationPolicyType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingWebhook",
        &[
            ("name", "string"),
            ("clientConfig", "v1beta1.WebhookClientConfig"),
            ("rules", "[]v1beta1.RuleWithOperations"),
            ("failurePolicy", "v1beta1.FailurePolicyType"),
            ("matchPolicy", "v1beta1.MatchPolicyType"),
            ("namespaceSelector", "v1.LabelSelector"),
            ("objectSelector", "v1.LabelSelector"),
            ("sideEffects", "v1beta1.SideEffectClass"),
            ("timeoutSeconds", "int32"),
            ("admissionReviewVersions", "[]string"),
            ("reinvocationPolicy", "v1beta1.ReinvocationPolicyType"),
            ("matchConditions", "[]v1beta1.MatchCondition"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingWebhookConfiguration",
        &[("metadata", "v1.ObjectMeta"), ("webhooks", "[]v1beta1.MutatingWebhook")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.MutatingWebhookConfigurationList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.MutatingWebhookConfiguration"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.Mutation",
        &[
            ("patchType", "v1beta1.PatchType"),
            ("applyConfiguration", "v1beta1.ApplyConfiguration"),
            ("jsonPatch", "v1beta1.JSONPatch"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.NamedRuleWithOperations",
        &[("resourceNames", "[]string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ParamKind",
        &[("apiVersion", "string"), ("kind", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ParamRef",
        &[
            ("name", "string"),
            ("namespace", "string"),
            ("selector", "v1.LabelSelector"),
            ("parameterNotFoundAction", "v1beta1.ParameterNotFoundActionType"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ServiceReference",
        &[
            ("namespace", "string"),
            ("name", "string"),
            ("path", "string"),
            ("port", "int32"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.TypeChecking",
        &[("expressionWarnings", "[]v1beta1.ExpressionWarning")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicy",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.ValidatingAdmissionPolicySpec"),
            ("status", "v1beta1.ValidatingAdmissionPolicyStatus"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.ValidatingAdmissionPolicyBindingSpec"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.ValidatingAdmissionPolicyBinding"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingSpec",
        &[
            ("policyName", "string"),
            ("paramRef", "v1beta1.ParamRef"),
            ("matchResources", "v1beta1.MatchResources"),
            ("validationActions", "[]v1beta1.ValidationAction"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.ValidatingAdmissionPolicy"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicySpec",
        &[
            ("paramKind", "v1beta1.ParamKind"),
            ("matchConstraints", "v1beta1.MatchResources"),
            ("validations", "[]v1beta1.Validation"),
            ("failurePolicy", "v1beta1.FailurePolicyType"),
            ("auditAnnotations", "[]v1beta1.AuditAnnotation"),
            ("matchConditions", "[]v1beta1.MatchCondition"),
            ("variables", "[]v1beta1.Variable"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyStatus",
        &[
            ("observedGeneration", "int64"),
            ("typeChecking", "v1beta1.TypeChecking"),
            ("conditions", "[]v1.Condition"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingWebhook",
        &[
            ("name", "string"),
            ("clientConfig", "v1beta1.WebhookClientConfig"),
            ("rules", "[]v1beta1.RuleWithOperations"),
            ("failurePolicy", "v1beta1.FailurePolicyType"),
            ("matchPolicy", "v1beta1.MatchPolicyType"),
            ("namespaceSelector", "v1.LabelSelector"),
            ("objectSelector", "v1.LabelSelector"),
            ("sideEffects", "v1beta1.SideEffectClass"),
            ("timeoutSeconds", "int32"),
            ("admissionReviewVersions", "[]string"),
            ("matchConditions", "[]v1beta1.MatchCondition"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingWebhookConfiguration",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("webhooks", "[]v1beta1.ValidatingWebhook"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.ValidatingWebhookConfigurationList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.ValidatingWebhookConfiguration"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.Validation",
        &[
            ("expression", "string"),
            ("message", "string"),
            ("reason", "v1.StatusReason"),
            ("messageExpression", "string"),
        ],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.Variable",
        &[("name", "string"), ("expression", "string")],
    ),
    (
        "k8s.io.api.admissionregistration.v1beta1.WebhookClientConfig",
        &[
            ("url", "string"),
            ("service", "v1beta1.ServiceReference"),
            ("caBundle", "[]uint8"),
        ],
    ),
    (
        "k8s.io.api.apidiscovery.v2.APIGroupDiscovery",
        &[("metadata", "v1.ObjectMeta"), ("versions", "[]v2.APIVersionDiscovery")],
    ),
    (
        "k8s.io.api.apidiscovery.v2.APIGroupDiscoveryList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v2.APIGroupDiscovery")],
    ),
    (
        "k8s.io.api.apidiscovery.v2.APIResourceDiscovery",
        &[
            ("resource", "string"),
            ("responseKind", "v1.GroupVersionKind"),
            ("scope", "v2.ResourceScope"),
            ("singularResource", "string"),
            ("verbs", "[]string"),
            ("shortNames", "[]string"),
            ("categories", "[]string"),
            ("subresources", "[]v2.APISubresourceDiscovery"),
        ],
    ),
    (
        "k8s.io.api.apidiscovery.v2.APISubresourceDiscovery",
        &[
            ("subresource", "string"),
            ("responseKind", "v1.GroupVersionKind"),
            ("acceptedTypes", "[]v1.GroupVersionKind"),
            ("verbs", "[]string"),
        ],
    ),
    (
        "k8s.io.api.apidiscovery.v2.APIVersionDiscovery",
        &[
            ("version", "string"),
            ("resources", "[]v2.APIResourceDiscovery"),
            ("freshness", "v2.DiscoveryFreshness"),
        ],
    ),
    (
        "k8s.io.api.apidiscovery.v2beta1.APIGroupDiscovery",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("versions", "[]v2beta1.APIVersionDiscovery"),
        ],
    ),
    (
        "k8s.io.api.apidiscovery.v2beta1.APIGroupDiscoveryList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v2beta1.APIGroupDiscovery")],
    ),
    (
        "k8s.io.api.apidiscovery.v2beta1.APIResourceDiscovery",
        &[
            ("resource", "string"),
            ("responseKind", "v1.GroupVersionKind"),
            ("scope", "v2beta1.ResourceScope"),
            ("singularResource", "string"),
            ("verbs", "[]string"),
            ("shortNames", "[]string"),
            ("categories", "[]string"),
            ("subresources", "[]v2beta1.APISubresourceDiscovery"),
        ],
    ),
    (
        "k8s.io.api.apidiscovery.v2beta1.APISubresourceDiscovery",
        &[
            ("subresource", "string"),
            ("responseKind", "v1.GroupVersionKind"),
            ("acceptedTypes", "[]v1.GroupVersionKind"),
            ("verbs", "[]string"),
        ],
    ),
    (
        "k8s.io.api.apidiscovery.v2beta1.APIVersionDiscovery",
        &[
            ("version", "string"),
            ("resources", "[]v2beta1.APIResourceDiscovery"),
            ("freshness", "v2beta1.DiscoveryFreshness"),
        ],
    ),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.ServerStorageVersion",
        &[
            ("apiServerID", "string"),
            ("encodingVersion", "string"),
            ("decodableVersions", "[]string"),
            ("servedVersions", "[]string"),
        ],
    ),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.StorageVersion",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha1.StorageVersionSpec"),
            ("status", "v1alpha1.StorageVersionStatus"),
        ],
    ),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionCondition",
        &[
            ("type", "v1alpha1.StorageVersionConditionType"),
            ("status", "v1alpha1.ConditionStatus"),
            ("observedGeneration", "int64"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha1.StorageVersion")],
    ),
    (
        "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionStatus",
        &[
            ("storageVersions", "[]v1alpha1.ServerStorageVersion"),
            ("commonEncodingVersion", "string"),
            ("conditions", "[]v1alpha1.StorageVersionCondition"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.ControllerRevision",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("data", "runtime.RawExtension"),
            ("revision", "int64"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.ControllerRevisionList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ControllerRevision")],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSet",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.DaemonSetSpec"),
            ("status", "v1.DaemonSetStatus"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSetCondition",
        &[
            ("type", "v1.DaemonSetConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.DaemonSet")],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSetSpec",
        &[
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
            ("updateStrategy", "v1.DaemonSetUpdateStrategy"),
            ("minReadySeconds", "int32"),
            ("revisionHistoryLimit", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSetStatus",
        &[
            ("currentNumberScheduled", "int32"),
            ("numberMisscheduled", "int32"),
            ("desiredNumberScheduled", "int32"),
            ("numberReady", "int32"),
            ("observedGeneration", "int64"),
            ("updatedNumberScheduled", "int32"),
            ("numberAvailable", "int32"),
            ("numberUnavailable", "int32"),
            ("collisionCount", "int32"),
            ("conditions", "[]v1.DaemonSetCondition"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.DaemonSetUpdateStrategy",
        &[
            ("type", "v1.DaemonSetUpdateStrategyType"),
            ("rollingUpdate", "v1.RollingUpdateDaemonSet"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.Deployment",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.DeploymentSpec"),
            ("status", "v1.DeploymentStatus"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.DeploymentCondition",
        &[
            ("type", "v1.DeploymentConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastUpdateTime", "v1.Time"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.DeploymentList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Deployment")],
    ),
    (
        "k8s.io.api.apps.v1.DeploymentSpec",
        &[
            ("replicas", "int32"),
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
            ("strategy", "v1.DeploymentStrategy"),
            ("minReadySeconds", "int32"),
            ("revisionHistoryLimit", "int32"),
            ("paused", "bool"),
            ("progressDeadlineSeconds", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.DeploymentStatus",
        &[
            ("observedGeneration", "int64"),
            ("replicas", "int32"),
            ("updatedReplicas", "int32"),
            ("readyReplicas", "int32"),
            ("availableReplicas", "int32"),
            ("unavailableReplicas", "int32"),
            ("terminatingReplicas", "int32"),
            ("conditions", "[]v1.DeploymentCondition"),
            ("collisionCount", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.DeploymentStrategy",
        &[
            ("type", "v1.DeploymentStrategyType"),
            ("rollingUpdate", "v1.RollingUpdateDeployment"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.ReplicaSet",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.ReplicaSetSpec"),
            ("status", "v1.ReplicaSetStatus"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.ReplicaSetCondition",
        &[
            ("type", "v1.ReplicaSetConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.ReplicaSetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ReplicaSet")],
    ),
    (
        "k8s.io.api.apps.v1.ReplicaSetSpec",
        &[
            ("replicas", "int32"),
            ("minReadySeconds", "int32"),
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.ReplicaSetStatus",
        &[
            ("replicas", "int32"),
            ("fullyLabeledReplicas", "int32"),
            ("readyReplicas", "int32"),
            ("availableReplicas", "int32"),
            ("terminatingReplicas", "int32"),
            ("observedGeneration", "int64"),
            ("conditions", "[]v1.ReplicaSetCondition"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.RollingUpdateDaemonSet",
        &[
            ("maxUnavailable", "intstr.IntOrString"),
            ("maxSurge", "intstr.IntOrString"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.RollingUpdateDeployment",
        &[
            ("maxUnavailable", "intstr.IntOrString"),
            ("maxSurge", "intstr.IntOrString"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.RollingUpdateStatefulSetStrategy",
        &[("partition", "int32"), ("maxUnavailable", "intstr.IntOrString")],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSet",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.StatefulSetSpec"),
            ("status", "v1.StatefulSetStatus"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSetCondition",
        &[
            ("type", "v1.StatefulSetConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.StatefulSet")],
    ),
    ("k8s.io.api.apps.v1.StatefulSetOrdinals", &[("start", "int32")]),
    (
        "k8s.io.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy",
        &[
            ("whenDeleted", "v1.PersistentVolumeClaimRetentionPolicyType"),
            ("whenScaled", "v1.PersistentVolumeClaimRetentionPolicyType"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSetSpec",
        &[
            ("replicas", "int32"),
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
            ("volumeClaimTemplates", "[]v1.PersistentVolumeClaim"),
            ("serviceName", "string"),
            ("podManagementPolicy", "v1.PodManagementPolicyType"),
            ("updateStrategy", "v1.StatefulSetUpdateStrategy"),
            ("revisionHistoryLimit", "int32"),
            ("minReadySeconds", "int32"),
            (
                "persistentVolumeClaimRetentionPolicy",
                "v1.StatefulSetPersistentVolumeClaimRetentionPolicy",
            ),
            ("ordinals", "v1.StatefulSetOrdinals"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSetStatus",
        &[
            ("observedGeneration", "int64"),
            ("replicas", "int32"),
            ("readyReplicas", "int32"),
            ("currentReplicas", "int32"),
            ("updatedReplicas", "int32"),
            ("currentRevision", "string"),
            ("updateRevision", "string"),
            ("collisionCount", "int32"),
            ("conditions", "[]v1.StatefulSetCondition"),
            ("availableReplicas", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1.StatefulSetUpdateStrategy",
        &[
            ("type", "v1.StatefulSetUpdateStrategyType"),
            ("rollingUpdate", "v1.RollingUpdateStatefulSetStrategy"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.ControllerRevision",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("data", "runtime.RawExtension"),
            ("revision", "int64"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.ControllerRevisionList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.ControllerRevision")],
    ),
    (
        "k8s.io.api.apps.v1beta1.Deployment",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.DeploymentSpec"),
            ("status", "v1beta1.DeploymentStatus"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.DeploymentCondition",
        &[
            ("type", "v1beta1.DeploymentConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastUpdateTime", "v1.Time"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.DeploymentList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.Deployment")],
    ),
    (
        "k8s.io.api.apps.v1beta1.DeploymentRollback",
        &[
            ("name", "string"),
            ("updatedAnnotations", "map[string]string"),
            ("rollbackTo", "v1beta1.RollbackConfig"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.DeploymentSpec",
        &[
            ("replicas", "int32"),
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
            ("strategy", "v1beta1.DeploymentStrategy"),
            ("minReadySeconds", "int32"),
            ("revisionHistoryLimit", "int32"),
            ("paused", "bool"),
            ("rollbackTo", "v1beta1.RollbackConfig"),
            ("progressDeadlineSeconds", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.DeploymentStatus",
        &[
            ("observedGeneration", "int64"),
            ("replicas", "int32"),
            ("updatedReplicas", "int32"),
            ("readyReplicas", "int32"),
            ("availableReplicas", "int32"),
            ("unavailableReplicas", "int32"),
            ("terminatingReplicas", "int32"),
            ("conditions", "[]v1beta1.DeploymentCondition"),
            ("collisionCount", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.DeploymentStrategy",
        &[
            ("type", "v1beta1.DeploymentStrategyType"),
            ("rollingUpdate", "v1beta1.RollingUpdateDeployment"),
        ],
    ),
    ("k8s.io.api.apps.v1beta1.RollbackConfig", &[("revision", "int64")]),
    (
        "k8s.io.api.apps.v1beta1.RollingUpdateDeployment",
        &[
            ("maxUnavailable", "intstr.IntOrString"),
            ("maxSurge", "intstr.IntOrString"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.RollingUpdateStatefulSetStrategy",
        &[("partition", "int32"), ("maxUnavailable", "intstr.IntOrString")],
    ),
    (
        "k8s.io.api.apps.v1beta1.Scale",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.ScaleSpec"),
            ("status", "v1beta1.ScaleStatus"),
        ],
    ),
    ("k8s.io.api.apps.v1beta1.ScaleSpec", &[("replicas", "int32")]),
    (
        "k8s.io.api.apps.v1beta1.ScaleStatus",
        &[
            ("replicas", "int32"),
            ("selector", "map[string]string"),
            ("targetSelector", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSet",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.StatefulSetSpec"),
            ("status", "v1beta1.StatefulSetStatus"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetCondition",
        &[
            ("type", "v1beta1.StatefulSetConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.StatefulSet")],
    ),
    ("k8s.io.api.apps.v1beta1.StatefulSetOrdinals", &[("start", "int32")]),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy",
        &[
            ("whenDeleted", "v1beta1.PersistentVolumeClaimRetentionPolicyType"),
            ("whenScaled", "v1beta1.PersistentVolumeClaimRetentionPolicyType"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetSpec",
        &[
            ("replicas", "int32"),
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
            ("volumeClaimTemplates", "[]v1.PersistentVolumeClaim"),
            ("serviceName", "string"),
            ("podManagementPolicy", "v1beta1.PodManagementPolicyType"),
            ("updateStrategy", "v1beta1.StatefulSetUpdateStrategy"),
            ("revisionHistoryLimit", "int32"),
            ("minReadySeconds", "int32"),
            (
                "persistentVolumeClaimRetentionPolicy",
                "v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy",
            ),
            ("ordinals", "v1beta1.StatefulSetOrdinals"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetStatus",
        &[
            ("observedGeneration", "int64"),
            ("replicas", "int32"),
            ("readyReplicas", "int32"),
            ("currentReplicas", "int32"),
            ("updatedReplicas", "int32"),
            ("currentRevision", "string"),
            ("updateRevision", "string"),
            ("collisionCount", "int32"),
            ("conditions", "[]v1beta1.StatefulSetCondition"),
            ("availableReplicas", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta1.StatefulSetUpdateStrategy",
        &[
            ("type", "v1beta1.StatefulSetUpdateStrategyType"),
            ("rollingUpdate", "v1beta1.RollingUpdateStatefulSetStrategy"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.ControllerRevision",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("data", "runtime.RawExtension"),
            ("revision", "int64"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.ControllerRevisionList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta2.ControllerRevision")],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSet",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta2.DaemonSetSpec"),
            ("status", "v1beta2.DaemonSetStatus"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSetCondition",
        &[
            ("type", "v1beta2.DaemonSetConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta2.DaemonSet")],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSetSpec",
        &[
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
            ("updateStrategy", "v1beta2.DaemonSetUpdateStrategy"),
            ("minReadySeconds", "int32"),
            ("revisionHistoryLimit", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSetStatus",
        &[
            ("currentNumberScheduled", "int32"),
            ("numberMisscheduled", "int32"),
            ("desiredNumberScheduled", "int32"),
            ("numberReady", "int32"),
            ("observedGeneration", "int64"),
            ("updatedNumberScheduled", "int32"),
            ("numberAvailable", "int32"),
            ("numberUnavailable", "int32"),
            ("collisionCount", "int32"),
            ("conditions", "[]v1beta2.DaemonSetCondition"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.DaemonSetUpdateStrategy",
        &[
            ("type", "v1beta2.DaemonSetUpdateStrategyType"),
            ("rollingUpdate", "v1beta2.RollingUpdateDaemonSet"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.Deployment",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta2.DeploymentSpec"),
            ("status", "v1beta2.DeploymentStatus"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.DeploymentCondition",
        &[
            ("type", "v1beta2.DeploymentConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastUpdateTime", "v1.Time"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.DeploymentList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta2.Deployment")],
    ),
    (
        "k8s.io.api.apps.v1beta2.DeploymentSpec",
        &[
            ("replicas", "int32"),
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
            ("strategy", "v1beta2.DeploymentStrategy"),
            ("minReadySeconds", "int32"),
            ("revisionHistoryLimit", "int32"),
            ("paused", "bool"),
            ("progressDeadlineSeconds", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.DeploymentStatus",
        &[
            ("observedGeneration", "int64"),
            ("replicas", "int32"),
            ("updatedReplicas", "int32"),
            ("readyReplicas", "int32"),
            ("availableReplicas", "int32"),
            ("unavailableReplicas", "int32"),
            ("terminatingReplicas", "int32"),
            ("conditions", "[]v1beta2.DeploymentCondition"),
            ("collisionCount", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.DeploymentStrategy",
        &[
            ("type", "v1beta2.DeploymentStrategyType"),
            ("rollingUpdate", "v1beta2.RollingUpdateDeployment"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.ReplicaSet",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta2.ReplicaSetSpec"),
            ("status", "v1beta2.ReplicaSetStatus"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.ReplicaSetCondition",
        &[
            ("type", "v1beta2.ReplicaSetConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.ReplicaSetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta2.ReplicaSet")],
    ),
    (
        "k8s.io.api.apps.v1beta2.ReplicaSetSpec",
        &[
            ("replicas", "int32"),
            ("minReadySeconds", "int32"),
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.ReplicaSetStatus",
        &[
            ("replicas", "int32"),
            ("fullyLabeledReplicas", "int32"),
            ("readyReplicas", "int32"),
            ("availableReplicas", "int32"),
            ("terminatingReplicas", "int32"),
            ("observedGeneration", "int64"),
            ("conditions", "[]v1beta2.ReplicaSetCondition"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.RollingUpdateDaemonSet",
        &[
            ("maxUnavailable", "intstr.IntOrString"),
            ("maxSurge", "intstr.IntOrString"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.RollingUpdateDeployment",
        &[
            ("maxUnavailable", "intstr.IntOrString"),
            ("maxSurge", "intstr.IntOrString"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.RollingUpdateStatefulSetStrategy",
        &[("partition", "int32"), ("maxUnavailable", "intstr.IntOrString")],
    ),
    (
        "k8s.io.api.apps.v1beta2.Scale",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta2.ScaleSpec"),
            ("status", "v1beta2.ScaleStatus"),
        ],
    ),
    ("k8s.io.api.apps.v1beta2.ScaleSpec", &[("replicas", "int32")]),
    (
        "k8s.io.api.apps.v1beta2.ScaleStatus",
        &[
            ("replicas", "int32"),
            ("selector", "map[string]string"),
            ("targetSelector", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSet",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta2.StatefulSetSpec"),
            ("status", "v1beta2.StatefulSetStatus"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetCondition",
        &[
            ("type", "v1beta2.StatefulSetConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta2.StatefulSet")],
    ),
    ("k8s.io.api.apps.v1beta2.StatefulSetOrdinals", &[("start", "int32")]),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetPersistentVolumeClaimRetentionPolicy",
        &[
            ("whenDeleted", "v1beta2.PersistentVolumeClaimRetentionPolicyType"),
            ("whenScaled", "v1beta2.PersistentVolumeClaimRetentionPolicyType"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetSpec",
        &[
            ("replicas", "int32"),
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
            ("volumeClaimTemplates", "[]v1.PersistentVolumeClaim"),
            ("serviceName", "string"),
            ("podManagementPolicy", "v1beta2.PodManagementPolicyType"),
            ("updateStrategy", "v1beta2.StatefulSetUpdateStrategy"),
            ("revisionHistoryLimit", "int32"),
            ("minReadySeconds", "int32"),
            (
                "persistentVolumeClaimRetentionPolicy",
                "v1beta2.StatefulSetPersistentVolumeClaimRetentionPolicy",
            ),
            ("ordinals", "v1beta2.StatefulSetOrdinals"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetStatus",
        &[
            ("observedGeneration", "int64"),
            ("replicas", "int32"),
            ("readyReplicas", "int32"),
            ("currentReplicas", "int32"),
            ("updatedReplicas", "int32"),
            ("currentRevision", "string"),
            ("updateRevision", "string"),
            ("collisionCount", "int32"),
            ("conditions", "[]v1beta2.StatefulSetCondition"),
            ("availableReplicas", "int32"),
        ],
    ),
    (
        "k8s.io.api.apps.v1beta2.StatefulSetUpdateStrategy",
        &[
            ("type", "v1beta2.StatefulSetUpdateStrategyType"),
            ("rollingUpdate", "v1beta2.RollingUpdateStatefulSetStrategy"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1.BoundObjectReference",
        &[
            ("kind", "string"),
            ("apiVersion", "string"),
            ("name", "string"),
            ("uid", "types.UID"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1.SelfSubjectReview",
        &[("metadata", "v1.ObjectMeta"), ("status", "v1.SelfSubjectReviewStatus")],
    ),
    (
        "k8s.io.api.authentication.v1.SelfSubjectReviewStatus",
        &[("userInfo", "v1.UserInfo")],
    ),
    (
        "k8s.io.api.authentication.v1.TokenRequest",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.TokenRequestSpec"),
            ("status", "v1.TokenRequestStatus"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1.TokenRequestSpec",
        &[
            ("audiences", "[]string"),
            ("expirationSeconds", "int64"),
            ("boundObjectRef", "v1.BoundObjectReference"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1.TokenRequestStatus",
        &[("token", "string"), ("expirationTimestamp", "v1.Time")],
    ),
    (
        "k8s.io.api.authentication.v1.TokenReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.TokenReviewSpec"),
            ("status", "v1.TokenReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1.TokenReviewSpec",
        &[("token", "string"), ("audiences", "[]string")],
    ),
    (
        "k8s.io.api.authentication.v1.TokenReviewStatus",
        &[
            ("authenticated", "bool"),
            ("user", "v1.UserInfo"),
            ("audiences", "[]string"),
            ("error", "string"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1.UserInfo",
        &[
            ("username", "string"),
            ("uid", "string"),
            ("groups", "[]string"),
            ("extra", "map[string]v1.ExtraValue"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1alpha1.SelfSubjectReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("status", "v1alpha1.SelfSubjectReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1alpha1.SelfSubjectReviewStatus",
        &[("userInfo", "v1.UserInfo")],
    ),
    (
        "k8s.io.api.authentication.v1beta1.SelfSubjectReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("status", "v1beta1.SelfSubjectReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1beta1.SelfSubjectReviewStatus",
        &[("userInfo", "v1.UserInfo")],
    ),
    (
        "k8s.io.api.authentication.v1beta1.TokenReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.TokenReviewSpec"),
            ("status", "v1beta1.TokenReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1beta1.TokenReviewSpec",
        &[("token", "string"), ("audiences", "[]string")],
    ),
    (
        "k8s.io.api.authentication.v1beta1.TokenReviewStatus",
        &[
            ("authenticated", "bool"),
            ("user", "v1beta1.UserInfo"),
            ("audiences", "[]string"),
            ("error", "string"),
        ],
    ),
    (
        "k8s.io.api.authentication.v1beta1.UserInfo",
        &[
            ("username", "string"),
            ("uid", "string"),
            ("groups", "[]string"),
            ("extra", "map[string]v1beta1.ExtraValue"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.FieldSelectorAttributes",
        &[
            ("rawSelector", "string"),
            ("requirements", "[]v1.FieldSelectorRequirement"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.LabelSelectorAttributes",
        &[
            ("rawSelector", "string"),
            ("requirements", "[]v1.LabelSelectorRequirement"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.LocalSubjectAccessReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.SubjectAccessReviewSpec"),
            ("status", "v1.SubjectAccessReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.NonResourceAttributes",
        &[("path", "string"), ("verb", "string")],
    ),
    (
        "k8s.io.api.authorization.v1.NonResourceRule",
        &[("verbs", "[]string"), ("nonResourceURLs", "[]string")],
    ),
    (
        "k8s.io.api.authorization.v1.ResourceAttributes",
        &[
            ("namespace", "string"),
            ("verb", "string"),
            ("group", "string"),
            ("version", "string"),
            ("resource", "string"),
            ("subresource", "string"),
            ("name", "string"),
            ("fieldSelector", "v1.FieldSelectorAttributes"),
            ("labelSelector", "v1.LabelSelectorAttributes"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.ResourceRule",
        &[
            ("verbs", "[]string"),
            ("apiGroups", "[]string"),
            ("resources", "[]string"),
            ("resourceNames", "[]string"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.SelfSubjectAccessReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.SelfSubjectAccessReviewSpec"),
            ("status", "v1.SubjectAccessReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.SelfSubjectAccessReviewSpec",
        &[
            ("resourceAttributes", "v1.ResourceAttributes"),
            ("nonResourceAttributes", "v1.NonResourceAttributes"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.SelfSubjectRulesReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.SelfSubjectRulesReviewSpec"),
            ("status", "v1.SubjectRulesReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.SelfSubjectRulesReviewSpec",
        &[("namespace", "string")],
    ),
    (
        "k8s.io.api.authorization.v1.SubjectAccessReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.SubjectAccessReviewSpec"),
            ("status", "v1.SubjectAccessReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.SubjectAccessReviewSpec",
        &[
            ("resourceAttributes", "v1.ResourceAttributes"),
            ("nonResourceAttributes", "v1.NonResourceAttributes"),
            ("user", "string"),
            ("groups", "[]string"),
            ("extra", "map[string]v1.ExtraValue"),
            ("uid", "string"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.SubjectAccessReviewStatus",
        &[
            ("allowed", "bool"),
            ("denied", "bool"),
            ("reason", "string"),
            ("evaluationError", "string"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1.SubjectRulesReviewStatus",
        &[
            ("resourceRules", "[]v1.ResourceRule"),
            ("nonResourceRules", "[]v1.NonResourceRule"),
            ("incomplete", "bool"),
            ("evaluationError", "string"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.LocalSubjectAccessReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.SubjectAccessReviewSpec"),
            ("status", "v1beta1.SubjectAccessReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.NonResourceAttributes",
        &[("path", "string"), ("verb", "string")],
    ),
    (
        "k8s.io.api.authorization.v1beta1.NonResourceRule",
        &[("verbs", "[]string"), ("nonResourceURLs", "[]string")],
    ),
    (
        "k8s.io.api.authorization.v1beta1.ResourceAttributes",
        &[
            ("namespace", "string"),
            ("verb", "string"),
            ("group", "string"),
            ("version", "string"),
            ("resource", "string"),
            ("subresource", "string"),
            ("name", "string"),
            ("fieldSelector", "v1.FieldSelectorAttributes"),
            ("labelSelector", "v1.LabelSelectorAttributes"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.ResourceRule",
        &[
            ("verbs", "[]string"),
            ("apiGroups", "[]string"),
            ("resources", "[]string"),
            ("resourceNames", "[]string"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SelfSubjectAccessReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.SelfSubjectAccessReviewSpec"),
            ("status", "v1beta1.SubjectAccessReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SelfSubjectAccessReviewSpec",
        &[
            ("resourceAttributes", "v1beta1.ResourceAttributes"),
            ("nonResourceAttributes", "v1beta1.NonResourceAttributes"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SelfSubjectRulesReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.SelfSubjectRulesReviewSpec"),
            ("status", "v1beta1.SubjectRulesReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SelfSubjectRulesReviewSpec",
        &[("namespace", "string")],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectAccessReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.SubjectAccessReviewSpec"),
            ("status", "v1beta1.SubjectAccessReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectAccessReviewSpec",
        &[
            ("resourceAttributes", "v1beta1.ResourceAttributes"),
            ("nonResourceAttributes", "v1beta1.NonResourceAttributes"),
            ("user", "string"),
            ("group", "[]string"),
            ("extra", "map[string]v1beta1.ExtraValue"),
            ("uid", "string"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectAccessReviewStatus",
        &[
            ("allowed", "bool"),
            ("denied", "bool"),
            ("reason", "string"),
            ("evaluationError", "string"),
        ],
    ),
    (
        "k8s.io.api.authorization.v1beta1.SubjectRulesReviewStatus",
        &[
            ("resourceRules", "[]v1beta1.ResourceRule"),
            ("nonResourceRules", "[]v1beta1.NonResourceRule"),
            ("incomplete", "bool"),
            ("evaluationError", "string"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.ContainerResourceMetricSource",
        &[
            ("name", "v1.ResourceName"),
            ("targetAverageUtilization", "int32"),
            ("targetAverageValue", "resource.Quantity"),
            ("container", "string"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.ContainerResourceMetricStatus",
        &[
            ("name", "v1.ResourceName"),
            ("currentAverageUtilization", "int32"),
            ("currentAverageValue", "resource.Quantity"),
            ("container", "string"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.CrossVersionObjectReference",
        &[("kind", "string"), ("name", "string"), ("apiVersion", "string")],
    ),
    (
        "k8s.io.api.autoscaling.v1.ExternalMetricSource",
        &[
            ("metricName", "string"),
            ("metricSelector", "v1.LabelSelector"),
            ("targetValue", "resource.Quantity"),
            ("targetAverageValue", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.ExternalMetricStatus",
        &[
            ("metricName", "string"),
            ("metricSelector", "v1.LabelSelector"),
            ("currentValue", "resource.Quantity"),
            ("currentAverageValue", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscaler",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.HorizontalPodAutoscalerSpec"),
            ("status", "v1.HorizontalPodAutoscalerStatus"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerCondition",
        &[
            ("type", "v1.HorizontalPodAutoscalerConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
            ("observedGeneration", "int64"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.HorizontalPodAutoscaler")],
    ),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerSpec",
        &[
            ("scaleTargetRef", "v1.CrossVersionObjectReference"),
            ("minReplicas", "int32"),
            ("maxReplicas", "int32"),
            ("targetCPUUtilizationPercentage", "int32"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerStatus",
        &[
            ("observedGeneration", "int64"),
            ("lastScaleTime", "v1.Time"),
            ("currentReplicas", "int32"),
            ("desiredReplicas", "int32"),
            ("currentCPUUtilizationPercentage", "int32"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.MetricSpec",
        &[
            ("type", "v1.MetricSourceType"),
            ("object", "v1.ObjectMetricSource"),
            ("pods", "v1.PodsMetricSource"),
            ("resource", "v1.ResourceMetricSource"),
            ("containerResource", "v1.ContainerResourceMetricSource"),
            ("external", "v1.ExternalMetricSource"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.MetricStatus",
        &[
            ("type", "v1.MetricSourceType"),
            ("object", "v1.ObjectMetricStatus"),
            ("pods", "v1.PodsMetricStatus"),
            ("resource", "v1.ResourceMetricStatus"),
            ("containerResource", "v1.ContainerResourceMetricStatus"),
            ("external", "v1.ExternalMetricStatus"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.ObjectMetricSource",
        &[
            ("target", "v1.CrossVersionObjectReference"),
            ("metricName", "string"),
            ("targetValue", "resource.Quantity"),
            ("selector", "v1.LabelSelector"),
            ("averageValue", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.ObjectMetricStatus",
        &[
            ("target", "v1.CrossVersionObjectReference"),
            ("metricName", "string"),
            ("currentValue", "resource.Quantity"),
            ("selector", "v1.LabelSelector"),
            ("averageValue", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.PodsMetricSource",
        &[
            ("metricName", "string"),
            ("targetAverageValue", "resource.Quantity"),
            ("selector", "v1.LabelSelector"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.PodsMetricStatus",
        &[
            ("metricName", "string"),
            ("currentAverageValue", "resource.Quantity"),
            ("selector", "v1.LabelSelector"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.ResourceMetricSource",
        &[
            ("name", "v1.ResourceName"),
            ("targetAverageUtilization", "int32"),
            ("targetAverageValue", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.ResourceMetricStatus",
        &[
            ("name", "v1.ResourceName"),
            ("currentAverageUtilization", "int32"),
            ("currentAverageValue", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v1.Scale",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.ScaleSpec"),
            ("status", "v1.ScaleStatus"),
        ],
    ),
    ("k8s.io.api.autoscaling.v1.ScaleSpec", &[("replicas", "int32")]),
    (
        "k8s.io.api.autoscaling.v1.ScaleStatus",
        &[("replicas", "int32"), ("selector", "string")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ContainerResourceMetricSource",
        &[
            ("name", "v1.ResourceName"),
            ("target", "v2.MetricTarget"),
            ("container", "string"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.ContainerResourceMetricStatus",
        &[
            ("name", "v1.ResourceName"),
            ("current", "v2.MetricValueStatus"),
            ("container", "string"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.CrossVersionObjectReference",
        &[("kind", "string"), ("name", "string"), ("apiVersion", "string")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ExternalMetricSource",
        &[("metric", "v2.MetricIdentifier"), ("target", "v2.MetricTarget")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ExternalMetricStatus",
        &[("metric", "v2.MetricIdentifier"), ("current", "v2.MetricValueStatus")],
    ),
    (
        "k8s.io.api.autoscaling.v2.HPAScalingPolicy",
        &[
            ("type", "v2.HPAScalingPolicyType"),
            ("value", "int32"),
            ("periodSeconds", "int32"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.HPAScalingRules",
        &[
            ("stabilizationWindowSeconds", "int32"),
            ("selectPolicy", "v2.ScalingPolicySelect"),
            ("policies", "[]v2.HPAScalingPolicy"),
            ("tolerance", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscaler",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v2.HorizontalPodAutoscalerSpec"),
            ("status", "v2.HorizontalPodAutoscalerStatus"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerBehavior",
        &[("scaleUp", "v2.HPAScalingRules"), ("scaleDown", "v2.HPAScalingRules")],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerCondition",
        &[
            ("type", "v2.HorizontalPodAutoscalerConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
            ("observedGeneration", "int64"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v2.HorizontalPodAutoscaler")],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerSpec",
        &[
            ("scaleTargetRef", "v2.CrossVersionObjectReference"),
            ("minReplicas", "int32"),
            ("maxReplicas", "int32"),
            ("metrics", "[]v2.MetricSpec"),
            ("behavior", "v2.HorizontalPodAutoscalerBehavior"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerStatus",
        &[
            ("observedGeneration", "int64"),
            ("lastScaleTime", "v1.Time"),
            ("currentReplicas", "int32"),
            ("desiredReplicas", "int32"),
            ("currentMetrics", "[]v2.MetricStatus"),
            ("conditions", "[]v2.HorizontalPodAutoscalerCondition"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.MetricIdentifier",
        &[("name", "string"), ("selector", "v1.LabelSelector")],
    ),
    (
        "k8s.io.api.autoscaling.v2.MetricSpec",
        &[
            ("type", "v2.MetricSourceType"),
            ("object", "v2.ObjectMetricSource"),
            ("pods", "v2.PodsMetricSource"),
            ("resource", "v2.ResourceMetricSource"),
            ("containerResource", "v2.ContainerResourceMetricSource"),
            ("external", "v2.ExternalMetricSource"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.MetricStatus",
        &[
            ("type", "v2.MetricSourceType"),
            ("object", "v2.ObjectMetricStatus"),
            ("pods", "v2.PodsMetricStatus"),
            ("resource", "v2.ResourceMetricStatus"),
            ("containerResource", "v2.ContainerResourceMetricStatus"),
            ("external", "v2.ExternalMetricStatus"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.MetricTarget",
        &[
            ("type", "v2.MetricTargetType"),
            ("value", "resource.Quantity"),
            ("averageValue", "resource.Quantity"),
            ("averageUtilization", "int32"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.MetricValueStatus",
        &[
            ("value", "resource.Quantity"),
            ("averageValue", "resource.Quantity"),
            ("averageUtilization", "int32"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.ObjectMetricSource",
        &[
            ("describedObject", "v2.CrossVersionObjectReference"),
            ("target", "v2.MetricTarget"),
            ("metric", "v2.MetricIdentifier"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.ObjectMetricStatus",
        &[
            ("metric", "v2.MetricIdentifier"),
            ("current", "v2.MetricValueStatus"),
            ("describedObject", "v2.CrossVersionObjectReference"),
        ],
    ),
    (
        "k8s.io.api.autoscaling.v2.PodsMetricSource",
        &[("metric", "v2.MetricIdentifier"), ("target", "v2.MetricTarget")],
    ),
    (
        "k8s.io.api.autoscaling.v2.PodsMetricStatus",
        &[("metric", "v2.MetricIdentifier"), ("current", "v2.MetricValueStatus")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ResourceMetricSource",
        &[("name", "v1.ResourceName"), ("target", "v2.MetricTarget")],
    ),
    (
        "k8s.io.api.autoscaling.v2.ResourceMetricStatus",
        &[("name", "v1.ResourceName"), ("current", "v2.MetricValueStatus")],
    ),
    (
        "k8s.io.api.batch.v1.CronJob",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.CronJobSpec"),
            ("status", "v1.CronJobStatus"),
        ],
    ),
    (
        "k8s.io.api.batch.v1.CronJobList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.CronJob")],
    ),
    (
        "k8s.io.api.batch.v1.CronJobSpec",
        &[
            ("schedule", "string"),
            ("timeZone", "string"),
            ("startingDeadlineSeconds", "int64"),
            ("concurrencyPolicy", "v1.ConcurrencyPolicy"),
            ("suspend", "bool"),
            ("jobTemplate", "v1.JobTemplateSpec"),
            ("successfulJobsHistoryLimit", "int32"),
            ("failedJobsHistoryLimit", "int32"),
        ],
    ),
    (
        "k8s.io.api.batch.v1.CronJobStatus",
        &[
            ("active", "[]v1.ObjectReference"),
            ("lastScheduleTime", "v1.Time"),
            ("lastSuccessfulTime", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.batch.v1.Job",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.JobSpec"),
            ("status", "v1.JobStatus"),
        ],
    ),
    (
        "k8s.io.api.batch.v1.JobCondition",
        &[
            ("type", "v1.JobConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastProbeTime", "v1.Time"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.batch.v1.JobList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Job")],
    ),
    (
        "k8s.io.api.batch.v1.JobSpec",
        &[
            ("parallelism", "int32"),
            ("completions", "int32"),
            ("activeDeadlineSeconds", "int64"),
            ("podFailurePolicy", "v1.PodFailurePolicy"),
            ("successPolicy", "v1.SuccessPolicy"),
            ("backoffLimit", "int32"),
            ("backoffLimitPerIndex", "int32"),
            ("maxFailedIndexes", "int32"),
            ("selector", "v1.LabelSelector"),
            ("manualSelector", "bool"),
            ("template", "v1.PodTemplateSpec"),
            ("ttlSecondsAfterFinished", "int32"),
            ("completionMode", "v1.CompletionMode"),
            ("suspend", "bool"),
            ("podReplacementPolicy", "v1.PodReplacementPolicy"),
            ("managedBy", "string"),
        ],
    ),
    (
        "k8s.io.api.batch.v1.JobStatus",
        &[
            ("conditions", "[]v1.JobCondition"),
            ("startTime", "v1.Time"),
            ("completionTime", "v1.Time"),
            ("active", "int32"),
            ("succeeded", "int32"),
            ("failed", "int32"),
            ("terminating", "int32"),
            ("completedIndexes", "string"),
            ("failedIndexes", "string"),
            ("uncountedTerminatedPods", "v1.UncountedTerminatedPods"),
            ("ready", "int32"),
        ],
    ),
    (
        "k8s.io.api.batch.v1.JobTemplateSpec",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.JobSpec")],
    ),
    (
        "k8s.io.api.batch.v1.PodFailurePolicy",
        &[("rules", "[]v1.PodFailurePolicyRule")],
    ),
    (
        "k8s.io.api.batch.v1.PodFailurePolicyOnExitCodesRequirement",
        &[
            ("containerName", "string"),
            ("operator", "v1.PodFailurePolicyOnExitCodesOperator"),
            ("values", "[]int32"),
        ],
    ),
    (
        "k8s.io.api.batch.v1.PodFailurePolicyOnPodConditionsPattern",
        &[("type", "v1.PodConditionType"), ("status", "v1.ConditionStatus")],
    ),
    (
        "k8s.io.api.batch.v1.PodFailurePolicyRule",
        &[
            ("action", "v1.PodFailurePolicyAction"),
            ("onExitCodes", "v1.PodFailurePolicyOnExitCodesRequirement"),
            ("onPodConditions", "[]v1.PodFailurePolicyOnPodConditionsPattern"),
        ],
    ),
    (
        "k8s.io.api.batch.v1.SuccessPolicy",
        &[("rules", "[]v1.SuccessPolicyRule")],
    ),
    (
        "k8s.io.api.batch.v1.SuccessPolicyRule",
        &[("succeededIndexes", "string"), ("succeededCount", "int32")],
    ),
    (
        "k8s.io.api.batch.v1.UncountedTerminatedPods",
        &[("succeeded", "[]types.UID"), ("failed", "[]types.UID")],
    ),
    (
        "k8s.io.api.batch.v1beta1.CronJob",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.CronJobSpec"),
            ("status", "v1beta1.CronJobStatus"),
        ],
    ),
    (
        "k8s.io.api.batch.v1beta1.CronJobList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.CronJob")],
    ),
    (
        "k8s.io.api.batch.v1beta1.CronJobSpec",
        &[
            ("schedule", "string"),
            ("timeZone", "string"),
            ("startingDeadlineSeconds", "int64"),
            ("concurrencyPolicy", "v1beta1.ConcurrencyPolicy"),
            ("suspend", "bool"),
            ("jobTemplate", "v1beta1.JobTemplateSpec"),
            ("successfulJobsHistoryLimit", "int32"),
            ("failedJobsHistoryLimit", "int32"),
        ],
    ),
    (
        "k8s.io.api.batch.v1beta1.CronJobStatus",
        &[
            ("active", "[]v1.ObjectReference"),
            ("lastScheduleTime", "v1.Time"),
            ("lastSuccessfulTime", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.batch.v1beta1.JobTemplateSpec",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.JobSpec")],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequest",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.CertificateSigningRequestSpec"),
            ("status", "v1.CertificateSigningRequestStatus"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestCondition",
        &[
            ("type", "v1.RequestConditionType"),
            ("status", "v1.ConditionStatus"),
            ("reason", "string"),
            ("message", "string"),
            ("lastUpdateTime", "v1.Time"),
            ("lastTransitionTime", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.CertificateSigningRequest")],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestSpec",
        &[
            ("request", "[]uint8"),
            ("signerName", "string"),
            ("expirationSeconds", "int32"),
            ("usages", "[]v1.KeyUsage"),
            ("username", "string"),
            ("uid", "string"),
            ("groups", "[]string"),
            ("extra", "map[string]v1.ExtraValue"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1.CertificateSigningRequestStatus",
        &[
            ("conditions", "[]v1.CertificateSigningRequestCondition"),
            ("certificate", "[]uint8"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1.ClusterTrustBundle",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.ClusterTrustBundleSpec")],
    ),
    (
        "k8s.io.api.certificates.v1.ClusterTrustBundleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ClusterTrustBundle")],
    ),
    (
        "k8s.io.api.certificates.v1.ClusterTrustBundleSpec",
        &[("signerName", "string"), ("trustBundle", "string")],
    ),
    (
        "k8s.io.api.certificates.v1alpha1.ClusterTrustBundle",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha1.ClusterTrustBundleSpec"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1alpha1.ClusterTrustBundleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha1.ClusterTrustBundle")],
    ),
    (
        "k8s.io.api.certificates.v1alpha1.ClusterTrustBundleSpec",
        &[("signerName", "string"), ("trustBundle", "string")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequest",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.CertificateSigningRequestSpec"),
            ("status", "v1beta1.CertificateSigningRequestStatus"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestCondition",
        &[
            ("type", "v1beta1.RequestConditionType"),
            ("status", "v1.ConditionStatus"),
            ("reason", "string"),
            ("message", "string"),
            ("lastUpdateTime", "v1.Time"),
            ("lastTransitionTime", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.CertificateSigningRequest"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestSpec",
        &[
            ("request", "[]uint8"),
            ("signerName", "string"),
            ("expirationSeconds", "int32"),
            ("usages", "[]v1beta1.KeyUsage"),
            ("username", "string"),
            ("uid", "string"),
            ("groups", "[]string"),
            ("extra", "map[string]v1beta1.ExtraValue"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1beta1.CertificateSigningRequestStatus",
        &[
            ("conditions", "[]v1beta1.CertificateSigningRequestCondition"),
            ("certificate", "[]uint8"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1beta1.ClusterTrustBundle",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.ClusterTrustBundleSpec"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1beta1.ClusterTrustBundleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.ClusterTrustBundle")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.ClusterTrustBundleSpec",
        &[("signerName", "string"), ("trustBundle", "string")],
    ),
    (
        "k8s.io.api.certificates.v1beta1.PodCertificateRequest",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.PodCertificateRequestSpec"),
            ("status", "v1beta1.PodCertificateRequestStatus"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1beta1.PodCertificateRequestList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.PodCertificateRequest"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1beta1.PodCertificateRequestSpec",
        &[
            ("signerName", "string"),
            ("podName", "string"),
            ("podUID", "types.UID"),
            ("serviceAccountName", "string"),
            ("serviceAccountUID", "types.UID"),
            ("nodeName", "types.NodeName"),
            ("nodeUID", "types.UID"),
            ("maxExpirationSeconds", "int32"),
            ("pkixPublicKey", "[]uint8"),
            ("proofOfPossession", "[]uint8"),
            ("stubPKCS10Request", "[]uint8"),
            ("unverifiedUserAnnotations", "map[string]string"),
        ],
    ),
    (
        "k8s.io.api.certificates.v1beta1.PodCertificateRequestStatus",
        &[
            ("conditions", "[]v1.Condition"),
            ("certificateChain", "string"),
            ("notBefore", "v1.Time"),
            ("beginRefreshAt", "v1.Time"),
            ("notAfter", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.coordination.v1.Lease",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.LeaseSpec")],
    ),
    (
        "k8s.io.api.coordination.v1.LeaseList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Lease")],
    ),
    (
        "k8s.io.api.coordination.v1.LeaseSpec",
        &[
            ("holderIdentity", "string"),
            ("leaseDurationSeconds", "int32"),
            ("acquireTime", "v1.MicroTime"),
            ("renewTime", "v1.MicroTime"),
            ("leaseTransitions", "int32"),
            ("strategy", "v1.CoordinatedLeaseStrategy"),
            ("preferredHolder", "string"),
        ],
    ),
    (
        "k8s.io.api.coordination.v1alpha2.LeaseCandidate",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1alpha2.LeaseCandidateSpec")],
    ),
    (
        "k8s.io.api.coordination.v1alpha2.LeaseCandidateList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha2.LeaseCandidate")],
    ),
    (
        "k8s.io.api.coordination.v1alpha2.LeaseCandidateSpec",
        &[
            ("leaseName", "string"),
            ("pingTime", "v1.MicroTime"),
            ("renewTime", "v1.MicroTime"),
            ("binaryVersion", "string"),
            ("emulationVersion", "string"),
            ("strategy", "v1.CoordinatedLeaseStrategy"),
        ],
    ),
    (
        "k8s.io.api.coordination.v1beta1.Lease",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta1.LeaseSpec")],
    ),
    (
        "k8s.io.api.coordination.v1beta1.LeaseCandidate",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta1.LeaseCandidateSpec")],
    ),
    (
        "k8s.io.api.coordination.v1beta1.LeaseCandidateList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.LeaseCandidate")],
    ),
    (
        "k8s.io.api.coordination.v1beta1.LeaseCandidateSpec",
        &[
            ("leaseName", "string"),
            ("pingTime", "v1.MicroTime"),
            ("renewTime", "v1.MicroTime"),
            ("binaryVersion", "string"),
            ("emulationVersion", "string"),
            ("strategy", "v1.CoordinatedLeaseStrategy"),
        ],
    ),
    (
        "k8s.io.api.coordination.v1beta1.LeaseList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.Lease")],
    ),
    (
        "k8s.io.api.coordination.v1beta1.LeaseSpec",
        &[
            ("holderIdentity", "string"),
            ("leaseDurationSeconds", "int32"),
            ("acquireTime", "v1.MicroTime"),
            ("renewTime", "v1.MicroTime"),
            ("leaseTransitions", "int32"),
            ("strategy", "v1.CoordinatedLeaseStrategy"),
            ("preferredHolder", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.AWSElasticBlockStoreVolumeSource",
        &[
            ("volumeID", "string"),
            ("fsType", "string"),
            ("partition", "int32"),
            ("readOnly", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.Affinity",
        &[
            ("nodeAffinity", "v1.NodeAffinity"),
            ("podAffinity", "v1.PodAffinity"),
            ("podAntiAffinity", "v1.PodAntiAffinity"),
        ],
    ),
    (
        "k8s.io.api.core.v1.AppArmorProfile",
        &[("type", "v1.AppArmorProfileType"), ("localhostProfile", "string")],
    ),
    (
        "k8s.io.api.core.v1.AttachedVolume",
        &[("name", "v1.UniqueVolumeName"), ("devicePath", "string")],
    ),
    (
        "k8s.io.api.core.v1.AvoidPods",
        &[("preferAvoidPods", "[]v1.PreferAvoidPodsEntry")],
    ),
    (
        "k8s.io.api.core.v1.AzureDiskVolumeSource",
        &[
            ("diskName", "string"),
            ("diskURI", "string"),
            ("cachingMode", "v1.AzureDataDiskCachingMode"),
            ("fsType", "string"),
            ("readOnly", "bool"),
            ("kind", "v1.AzureDataDiskKind"),
        ],
    ),
    (
        "k8s.io.api.core.v1.AzureFilePersistentVolumeSource",
        &[
            ("secretName", "string"),
            ("shareName", "string"),
            ("readOnly", "bool"),
            ("secretNamespace", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.AzureFileVolumeSource",
        &[("secretName", "string"), ("shareName", "string"), ("readOnly", "bool")],
    ),
    (
        "k8s.io.api.core.v1.Binding",
        &[("metadata", "v1.ObjectMeta"), ("target", "v1.ObjectReference")],
    ),
    (
        "k8s.io.api.core.v1.CSIPersistentVolumeSource",
        &[
            ("driver", "string"),
            ("volumeHandle", "string"),
            ("readOnly", "bool"),
            ("fsType", "string"),
            ("volumeAttributes", "map[string]string"),
            ("controllerPublishSecretRef", "v1.SecretReference"),
            ("nodeStageSecretRef", "v1.SecretReference"),
            ("nodePublishSecretRef", "v1.SecretReference"),
            ("controllerExpandSecretRef", "v1.SecretReference"),
            ("nodeExpandSecretRef", "v1.SecretReference"),
        ],
    ),
    (
        "k8s.io.api.core.v1.CSIVolumeSource",
        &[
            ("driver", "string"),
            ("readOnly", "bool"),
            ("fsType", "string"),
            ("volumeAttributes", "map[string]string"),
            ("nodePublishSecretRef", "v1.LocalObjectReference"),
        ],
    ),
    (
        "k8s.io.api.core.v1.Capabilities",
        &[("add", "[]v1.Capability"), ("drop", "[]v1.Capability")],
    ),
    (
        "k8s.io.api.core.v1.CephFSPersistentVolumeSource",
        &[
            ("monitors", "[]string"),
            ("path", "string"),
            ("user", "string"),
            ("secretFile", "string"),
            ("secretRef", "v1.SecretReference"),
            ("readOnly", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.CephFSVolumeSource",
        &[
            ("monitors", "[]string"),
            ("path", "string"),
            ("user", "string"),
            ("secretFile", "string"),
            ("secretRef", "v1.LocalObjectReference"),
            ("readOnly", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.CinderPersistentVolumeSource",
        &[
            ("volumeID", "string"),
            ("fsType", "string"),
            ("readOnly", "bool"),
            ("secretRef", "v1.SecretReference"),
        ],
    ),
    (
        "k8s.io.api.core.v1.CinderVolumeSource",
        &[
            ("volumeID", "string"),
            ("fsType", "string"),
            ("readOnly", "bool"),
            ("secretRef", "v1.LocalObjectReference"),
        ],
    ),
    ("k8s.io.api.core.v1.ClientIPConfig", &[("timeoutSeconds", "int32")]),
    (
        "k8s.io.api.core.v1.ClusterTrustBundleProjection",
        &[
            ("name", "string"),
            ("signerName", "string"),
            ("labelSelector", "v1.LabelSelector"),
            ("optional", "bool"),
            ("path", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ComponentCondition",
        &[
            ("type", "v1.ComponentConditionType"),
            ("status", "v1.ConditionStatus"),
            ("message", "string"),
            ("error", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ComponentStatus",
        &[("metadata", "v1.ObjectMeta"), ("conditions", "[]v1.ComponentCondition")],
    ),
    (
        "k8s.io.api.core.v1.ComponentStatusList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ComponentStatus")],
    ),
    (
        "k8s.io.api.core.v1.ConfigMap",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("immutable", "bool"),
            ("data", "map[string]string"),
            ("binaryData", "map[string][]uint8"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ConfigMapEnvSource",
        &[("name", "string"), ("optional", "bool")],
    ),
    (
        "k8s.io.api.core.v1.ConfigMapKeySelector",
        &[("name", "string"), ("key", "string"), ("optional", "bool")],
    ),
    (
        "k8s.io.api.core.v1.ConfigMapList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ConfigMap")],
    ),
    (
        "k8s.io.api.core.v1.ConfigMapNodeConfigSource",
        &[
            ("namespace", "string"),
            ("name", "string"),
            ("uid", "types.UID"),
            ("resourceVersion", "string"),
            ("kubeletConfigKey", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ConfigMapProjection",
        &[("name", "string"), ("items", "[]v1.KeyToPath"), ("optional", "bool")],
    ),
    (
        "k8s.io.api.core.v1.ConfigMapVolumeSource",
        &[
            ("name", "string"),
            ("items", "[]v1.KeyToPath"),
            ("defaultMode", "int32"),
            ("optional", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.Container",
        &[
            ("name", "string"),
            ("image", "string"),
            ("command", "[]string"),
            ("args", "[]string"),
            ("workingDir", "string"),
            ("ports", "[]v1.ContainerPort"),
            ("envFrom", "[]v1.EnvFromSource"),
            ("env", "[]v1.EnvVar"),
            ("resources", "v1.ResourceRequirements"),
            ("resizePolicy", "[]v1.ContainerResizePolicy"),
            ("restartPolicy", "v1.ContainerRestartPolicy"),
            ("restartPolicyRules", "[]v1.ContainerRestartRule"),
            ("volumeMounts", "[]v1.VolumeMount"),
            ("volumeDevices", "[]v1.VolumeDevice"),
            ("livenessProbe", "v1.Probe"),
            ("readinessProbe", "v1.Probe"),
            ("startupProbe", "v1.Probe"),
            ("lifecycle", "v1.Lifecycle"),
            ("terminationMessagePath", "string"),
            ("terminationMessagePolicy", "v1.TerminationMessagePolicy"),
            ("imagePullPolicy", "v1.PullPolicy"),
            ("securityContext", "v1.SecurityContext"),
            ("stdin", "bool"),
            ("stdinOnce", "bool"),
            ("tty", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ContainerExtendedResourceRequest",
        &[
            ("containerName", "string"),
            ("resourceName", "string"),
            ("requestName", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ContainerImage",
        &[("names", "[]string"), ("sizeBytes", "int64")],
    ),
    (
        "k8s.io.api.core.v1.ContainerPort",
        &[
            ("name", "string"),
            ("hostPort", "int32"),
            ("containerPort", "int32"),
            ("protocol", "v1.Protocol"),
            ("hostIP", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ContainerResizePolicy",
        &[
            ("resourceName", "v1.ResourceName"),
            ("restartPolicy", "v1.ResourceResizeRestartPolicy"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ContainerRestartRule",
        &[
            ("action", "v1.ContainerRestartRuleAction"),
            ("exitCodes", "v1.ContainerRestartRuleOnExitCodes"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ContainerRestartRuleOnExitCodes",
        &[
            ("operator", "v1.ContainerRestartRuleOnExitCodesOperator"),
            ("values", "[]int32"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ContainerState",
        &[
            ("waiting", "v1.ContainerStateWaiting"),
            ("running", "v1.ContainerStateRunning"),
            ("terminated", "v1.ContainerStateTerminated"),
        ],
    ),
    ("k8s.io.api.core.v1.ContainerStateRunning", &[("startedAt", "v1.Time")]),
    (
        "k8s.io.api.core.v1.ContainerStateTerminated",
        &[
            ("exitCode", "int32"),
            ("signal", "int32"),
            ("reason", "string"),
            ("message", "string"),
            ("startedAt", "v1.Time"),
            ("finishedAt", "v1.Time"),
            ("containerID", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ContainerStateWaiting",
        &[("reason", "string"), ("message", "string")],
    ),
    (
        "k8s.io.api.core.v1.ContainerStatus",
        &[
            ("name", "string"),
            ("state", "v1.ContainerState"),
            ("lastState", "v1.ContainerState"),
            ("ready", "bool"),
            ("restartCount", "int32"),
            ("image", "string"),
            ("imageID", "string"),
            ("containerID", "string"),
            ("started", "bool"),
            ("allocatedResources", "v1.ResourceList"),
            ("resources", "v1.ResourceRequirements"),
            ("volumeMounts", "[]v1.VolumeMountStatus"),
            ("user", "v1.ContainerUser"),
            ("allocatedResourcesStatus", "[]v1.ResourceStatus"),
            ("stopSignal", "v1.Signal"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ContainerUser",
        &[("linux", "v1.LinuxContainerUser")],
    ),
    ("k8s.io.api.core.v1.DaemonEndpoint", &[("Port", "int32")]),
    (
        "k8s.io.api.core.v1.DownwardAPIProjection",
        &[("items", "[]v1.DownwardAPIVolumeFile")],
    ),
    (
        "k8s.io.api.core.v1.DownwardAPIVolumeFile",
        &[
            ("path", "string"),
            ("fieldRef", "v1.ObjectFieldSelector"),
            ("resourceFieldRef", "v1.ResourceFieldSelector"),
            ("mode", "int32"),
        ],
    ),
    (
        "k8s.io.api.core.v1.DownwardAPIVolumeSource",
        &[("items", "[]v1.DownwardAPIVolumeFile"), ("defaultMode", "int32")],
    ),
    (
        "k8s.io.api.core.v1.EmptyDirVolumeSource",
        &[("medium", "v1.StorageMedium"), ("sizeLimit", "resource.Quantity")],
    ),
    (
        "k8s.io.api.core.v1.EndpointAddress",
        &[
            ("ip", "string"),
            ("hostname", "string"),
            ("nodeName", "string"),
            ("targetRef", "v1.ObjectReference"),
        ],
    ),
    (
        "k8s.io.api.core.v1.EndpointPort",
        &[
            ("name", "string"),
            ("port", "int32"),
            ("protocol", "v1.Protocol"),
            ("appProtocol", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.EndpointSubset",
        &[
            ("addresses", "[]v1.EndpointAddress"),
            ("notReadyAddresses", "[]v1.EndpointAddress"),
            ("ports", "[]v1.EndpointPort"),
        ],
    ),
    (
        "k8s.io.api.core.v1.Endpoints",
        &[("metadata", "v1.ObjectMeta"), ("subsets", "[]v1.EndpointSubset")],
    ),
    (
        "k8s.io.api.core.v1.EndpointsList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Endpoints")],
    ),
    (
        "k8s.io.api.core.v1.EnvFromSource",
        &[
            ("prefix", "string"),
            ("configMapRef", "v1.ConfigMapEnvSource"),
            ("secretRef", "v1.SecretEnvSource"),
        ],
    ),
    (
        "k8s.io.api.core.v1.EnvVar",
        &[
            ("name", "string"),
            ("value", "string"),
            ("valueFrom", "v1.EnvVarSource"),
        ],
    ),
    (
        "k8s.io.api.core.v1.EnvVarSource",
        &[
            ("fieldRef", "v1.ObjectFieldSelector"),
            ("resourceFieldRef", "v1.ResourceFieldSelector"),
            ("configMapKeyRef", "v1.ConfigMapKeySelector"),
            ("secretKeyRef", "v1.SecretKeySelector"),
            ("fileKeyRef", "v1.FileKeySelector"),
        ],
    ),
    (
        "k8s.io.api.core.v1.EphemeralContainer",
        &[("targetContainerName", "string")],
    ),
    (
        "k8s.io.api.core.v1.EphemeralContainerCommon",
        &[
            ("name", "string"),
            ("image", "string"),
            ("command", "[]string"),
            ("args", "[]string"),
            ("workingDir", "string"),
            ("ports", "[]v1.ContainerPort"),
            ("envFrom", "[]v1.EnvFromSource"),
            ("env", "[]v1.EnvVar"),
            ("resources", "v1.ResourceRequirements"),
            ("resizePolicy", "[]v1.ContainerResizePolicy"),
            ("restartPolicy", "v1.ContainerRestartPolicy"),
            ("restartPolicyRules", "[]v1.ContainerRestartRule"),
            ("volumeMounts", "[]v1.VolumeMount"),
            ("volumeDevices", "[]v1.VolumeDevice"),
            ("livenessProbe", "v1.Probe"),
            ("readinessProbe", "v1.Probe"),
            ("startupProbe", "v1.Probe"),
            ("lifecycle", "v1.Lifecycle"),
            ("terminationMessagePath", "string"),
            ("terminationMessagePolicy", "v1.TerminationMessagePolicy"),
            ("imagePullPolicy", "v1.PullPolicy"),
            ("securityContext", "v1.SecurityContext"),
            ("stdin", "bool"),
            ("stdinOnce", "bool"),
            ("tty", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.EphemeralVolumeSource",
        &[("volumeClaimTemplate", "v1.PersistentVolumeClaimTemplate")],
    ),
    (
        "k8s.io.api.core.v1.Event",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("involvedObject", "v1.ObjectReference"),
            ("reason", "string"),
            ("message", "string"),
            ("source", "v1.EventSource"),
            ("firstTimestamp", "v1.Time"),
            ("lastTimestamp", "v1.Time"),
            ("count", "int32"),
            ("type", "string"),
            ("eventTime", "v1.MicroTime"),
            ("series", "v1.EventSeries"),
            ("action", "string"),
            ("related", "v1.ObjectReference"),
            ("reportingComponent", "string"),
            ("reportingInstance", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.EventList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Event")],
    ),
    (
        "k8s.io.api.core.v1.EventSeries",
        &[("count", "int32"), ("lastObservedTime", "v1.MicroTime")],
    ),
    (
        "k8s.io.api.core.v1.EventSource",
        &[("component", "string"), ("host", "string")],
    ),
    ("k8s.io.api.core.v1.ExecAction", &[("command", "[]string")]),
    (
        "k8s.io.api.core.v1.FCVolumeSource",
        &[
            ("targetWWNs", "[]string"),
            ("lun", "int32"),
            ("fsType", "string"),
            ("readOnly", "bool"),
            ("wwids", "[]string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.FileKeySelector",
        &[
            ("volumeName", "string"),
            ("path", "string"),
            ("key", "string"),
            ("optional", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.FlexPersistentVolumeSource",
        &[
            ("driver", "string"),
            ("fsType", "string"),
            ("secretRef", "v1.SecretReference"),
            ("readOnly", "bool"),
            ("options", "map[string]string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.FlexVolumeSource",
        &[
            ("driver", "string"),
            ("fsType", "string"),
            ("secretRef", "v1.LocalObjectReference"),
            ("readOnly", "bool"),
            ("options", "map[string]string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.FlockerVolumeSource",
        &[("datasetName", "string"), ("datasetUUID", "string")],
    ),
    (
        "k8s.io.api.core.v1.GCEPersistentDiskVolumeSource",
        &[
            ("pdName", "string"),
            ("fsType", "string"),
            ("partition", "int32"),
            ("readOnly", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.GRPCAction",
        &[("port", "int32"), ("service", "string")],
    ),
    (
        "k8s.io.api.core.v1.GitRepoVolumeSource",
        &[
            ("repository", "string"),
            ("revision", "string"),
            ("directory", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.GlusterfsPersistentVolumeSource",
        &[
            ("endpoints", "string"),
            ("path", "string"),
            ("readOnly", "bool"),
            ("endpointsNamespace", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.GlusterfsVolumeSource",
        &[("endpoints", "string"), ("path", "string"), ("readOnly", "bool")],
    ),
    (
        "k8s.io.api.core.v1.HTTPGetAction",
        &[
            ("path", "string"),
            ("port", "intstr.IntOrString"),
            ("host", "string"),
            ("scheme", "v1.URIScheme"),
            ("httpHeaders", "[]v1.HTTPHeader"),
        ],
    ),
    (
        "k8s.io.api.core.v1.HTTPHeader",
        &[("name", "string"), ("value", "string")],
    ),
    (
        "k8s.io.api.core.v1.HostAlias",
        &[("ip", "string"), ("hostnames", "[]string")],
    ),
    ("k8s.io.api.core.v1.HostIP", &[("ip", "string")]),
    (
        "k8s.io.api.core.v1.HostPathVolumeSource",
        &[("path", "string"), ("type", "v1.HostPathType")],
    ),
    (
        "k8s.io.api.core.v1.ISCSIPersistentVolumeSource",
        &[
            ("targetPortal", "string"),
            ("iqn", "string"),
            ("lun", "int32"),
            ("iscsiInterface", "string"),
            ("fsType", "string"),
            ("readOnly", "bool"),
            ("portals", "[]string"),
            ("chapAuthDiscovery", "bool"),
            ("chapAuthSession", "bool"),
            ("secretRef", "v1.SecretReference"),
            ("initiatorName", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ISCSIVolumeSource",
        &[
            ("targetPortal", "string"),
            ("iqn", "string"),
            ("lun", "int32"),
            ("iscsiInterface", "string"),
            ("fsType", "string"),
            ("readOnly", "bool"),
            ("portals", "[]string"),
            ("chapAuthDiscovery", "bool"),
            ("chapAuthSession", "bool"),
            ("secretRef", "v1.LocalObjectReference"),
            ("initiatorName", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ImageVolumeSource",
        &[("reference", "string"), ("pullPolicy", "v1.PullPolicy")],
    ),
    ("k8s.io.api.core.v1.ImageVolumeStatus", &[("imageRef", "string")]),
    (
        "k8s.io.api.core.v1.KeyToPath",
        &[("key", "string"), ("path", "string"), ("mode", "int32")],
    ),
    (
        "k8s.io.api.core.v1.Lifecycle",
        &[
            ("postStart", "v1.LifecycleHandler"),
            ("preStop", "v1.LifecycleHandler"),
            ("stopSignal", "v1.Signal"),
        ],
    ),
    (
        "k8s.io.api.core.v1.LifecycleHandler",
        &[
            ("exec", "v1.ExecAction"),
            ("httpGet", "v1.HTTPGetAction"),
            ("tcpSocket", "v1.TCPSocketAction"),
            ("sleep", "v1.SleepAction"),
        ],
    ),
    (
        "k8s.io.api.core.v1.LimitRange",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.LimitRangeSpec")],
    ),
    (
        "k8s.io.api.core.v1.LimitRangeItem",
        &[
            ("type", "v1.LimitType"),
            ("max", "v1.ResourceList"),
            ("min", "v1.ResourceList"),
            ("default", "v1.ResourceList"),
            ("defaultRequest", "v1.ResourceList"),
            ("maxLimitRequestRatio", "v1.ResourceList"),
        ],
    ),
    (
        "k8s.io.api.core.v1.LimitRangeList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.LimitRange")],
    ),
    (
        "k8s.io.api.core.v1.LimitRangeSpec",
        &[("limits", "[]v1.LimitRangeItem")],
    ),
    (
        "k8s.io.api.core.v1.LinuxContainerUser",
        &[("uid", "int64"), ("gid", "int64"), ("supplementalGroups", "[]int64")],
    ),
    (
        "k8s.io.api.core.v1.LoadBalancerIngress",
        &[
            ("ip", "string"),
            ("hostname", "string"),
            ("ipMode", "v1.LoadBalancerIPMode"),
            ("ports", "[]v1.PortStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.LoadBalancerStatus",
        &[("ingress", "[]v1.LoadBalancerIngress")],
    ),
    ("k8s.io.api.core.v1.LocalObjectReference", &[("name", "string")]),
    (
        "k8s.io.api.core.v1.LocalVolumeSource",
        &[("path", "string"), ("fsType", "string")],
    ),
    (
        "k8s.io.api.core.v1.ModifyVolumeStatus",
        &[
            ("targetVolumeAttributesClassName", "string"),
            ("status", "v1.PersistentVolumeClaimModifyVolumeStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.NFSVolumeSource",
        &[("server", "string"), ("path", "string"), ("readOnly", "bool")],
    ),
    (
        "k8s.io.api.core.v1.Namespace",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.NamespaceSpec"),
            ("status", "v1.NamespaceStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.NamespaceCondition",
        &[
            ("type", "v1.NamespaceConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.NamespaceList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Namespace")],
    ),
    (
        "k8s.io.api.core.v1.NamespaceSpec",
        &[("finalizers", "[]v1.FinalizerName")],
    ),
    (
        "k8s.io.api.core.v1.NamespaceStatus",
        &[
            ("phase", "v1.NamespacePhase"),
            ("conditions", "[]v1.NamespaceCondition"),
        ],
    ),
    (
        "k8s.io.api.core.v1.Node",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.NodeSpec"),
            ("status", "v1.NodeStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.NodeAddress",
        &[("type", "v1.NodeAddressType"), ("address", "string")],
    ),
    (
        "k8s.io.api.core.v1.NodeAffinity",
        &[
            ("requiredDuringSchedulingIgnoredDuringExecution", "v1.NodeSelector"),
            (
                "preferredDuringSchedulingIgnoredDuringExecution",
                "[]v1.PreferredSchedulingTerm",
            ),
        ],
    ),
    (
        "k8s.io.api.core.v1.NodeAllocatableResourceClaimStatus",
        &[
            ("resourceClaimName", "string"),
            ("containers", "[]string"),
            ("resources", "map[v1.ResourceName]resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.core.v1.NodeCondition",
        &[
            ("type", "v1.NodeConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastHeartbeatTime", "v1.Time"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.NodeConfigSource",
        &[("configMap", "v1.ConfigMapNodeConfigSource")],
    ),
    (
        "k8s.io.api.core.v1.NodeConfigStatus",
        &[
            ("assigned", "v1.NodeConfigSource"),
            ("active", "v1.NodeConfigSource"),
            ("lastKnownGood", "v1.NodeConfigSource"),
            ("error", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.NodeDaemonEndpoints",
        &[("kubeletEndpoint", "v1.DaemonEndpoint")],
    ),
    (
        "k8s.io.api.core.v1.NodeFeatures",
        &[("supplementalGroupsPolicy", "bool")],
    ),
    (
        "k8s.io.api.core.v1.NodeList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Node")],
    ),
    (
        "k8s.io.api.core.v1.NodePodPreemptionPolicy",
        &[("disableResizePreemption", "[]string")],
    ),
    ("k8s.io.api.core.v1.NodeProxyOptions", &[("path", "string")]),
    (
        "k8s.io.api.core.v1.NodeRuntimeHandler",
        &[("name", "string"), ("features", "v1.NodeRuntimeHandlerFeatures")],
    ),
    (
        "k8s.io.api.core.v1.NodeRuntimeHandlerFeatures",
        &[("recursiveReadOnlyMounts", "bool"), ("userNamespaces", "bool")],
    ),
    (
        "k8s.io.api.core.v1.NodeSelector",
        &[("nodeSelectorTerms", "[]v1.NodeSelectorTerm")],
    ),
    (
        "k8s.io.api.core.v1.NodeSelectorRequirement",
        &[
            ("key", "string"),
            ("operator", "v1.NodeSelectorOperator"),
            ("values", "[]string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.NodeSelectorTerm",
        &[
            ("matchExpressions", "[]v1.NodeSelectorRequirement"),
            ("matchFields", "[]v1.NodeSelectorRequirement"),
        ],
    ),
    (
        "k8s.io.api.core.v1.NodeSpec",
        &[
            ("podCIDR", "string"),
            ("podCIDRs", "[]string"),
            ("providerID", "string"),
            ("unschedulable", "bool"),
            ("taints", "[]v1.Taint"),
            ("configSource", "v1.NodeConfigSource"),
            ("externalID", "string"),
            ("podPreemptionPolicy", "v1.NodePodPreemptionPolicy"),
        ],
    ),
    (
        "k8s.io.api.core.v1.NodeStatus",
        &[
            ("capacity", "v1.ResourceList"),
            ("allocatable", "v1.ResourceList"),
            ("phase", "v1.NodePhase"),
            ("conditions", "[]v1.NodeCondition"),
            ("addresses", "[]v1.NodeAddress"),
            ("daemonEndpoints", "v1.NodeDaemonEndpoints"),
            ("nodeInfo", "v1.NodeSystemInfo"),
            ("images", "[]v1.ContainerImage"),
            ("volumesInUse", "[]v1.UniqueVolumeName"),
            ("volumesAttached", "[]v1.AttachedVolume"),
            ("config", "v1.NodeConfigStatus"),
            ("runtimeHandlers", "[]v1.NodeRuntimeHandler"),
            ("features", "v1.NodeFeatures"),
            ("declaredFeatures", "[]string"),
        ],
    ),
    ("k8s.io.api.core.v1.NodeSwapStatus", &[("capacity", "int64")]),
    (
        "k8s.io.api.core.v1.NodeSystemInfo",
        &[
            ("machineID", "string"),
            ("systemUUID", "string"),
            ("bootID", "string"),
            ("kernelVersion", "string"),
            ("osImage", "string"),
            ("containerRuntimeVersion", "string"),
            ("kubeletVersion", "string"),
            ("kubeProxyVersion", "string"),
            ("operatingSystem", "string"),
            ("architecture", "string"),
            ("swap", "v1.NodeSwapStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ObjectFieldSelector",
        &[("apiVersion", "string"), ("fieldPath", "string")],
    ),
    (
        "k8s.io.api.core.v1.ObjectReference",
        &[
            ("kind", "string"),
            ("namespace", "string"),
            ("name", "string"),
            ("uid", "types.UID"),
            ("apiVersion", "string"),
            ("resourceVersion", "string"),
            ("fieldPath", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolume",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.PersistentVolumeSpec"),
            ("status", "v1.PersistentVolumeStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaim",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.PersistentVolumeClaimSpec"),
            ("status", "v1.PersistentVolumeClaimStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimCondition",
        &[
            ("type", "v1.PersistentVolumeClaimConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastProbeTime", "v1.Time"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.PersistentVolumeClaim")],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimSpec",
        &[
            ("accessModes", "[]v1.PersistentVolumeAccessMode"),
            ("selector", "v1.LabelSelector"),
            ("resources", "v1.VolumeResourceRequirements"),
            ("volumeName", "string"),
            ("storageClassName", "string"),
            ("volumeMode", "v1.PersistentVolumeMode"),
            ("dataSource", "v1.TypedLocalObjectReference"),
            ("dataSourceRef", "v1.TypedObjectReference"),
            ("volumeAttributesClassName", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimStatus",
        &[
            ("phase", "v1.PersistentVolumeClaimPhase"),
            ("accessModes", "[]v1.PersistentVolumeAccessMode"),
            ("capacity", "v1.ResourceList"),
            ("conditions", "[]v1.PersistentVolumeClaimCondition"),
            ("allocatedResources", "v1.ResourceList"),
            (
                "allocatedResourceStatuses",
                "map[v1.ResourceName]v1.ClaimResourceStatus",
            ),
            ("currentVolumeAttributesClassName", "string"),
            ("modifyVolumeStatus", "v1.ModifyVolumeStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimTemplate",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.PersistentVolumeClaimSpec")],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeClaimVolumeSource",
        &[("claimName", "string"), ("readOnly", "bool")],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.PersistentVolume")],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeSource",
        &[
            ("gcePersistentDisk", "v1.GCEPersistentDiskVolumeSource"),
            ("awsElasticBlockStore", "v1.AWSElasticBlockStoreVolumeSource"),
            ("hostPath", "v1.HostPathVolumeSource"),
            ("glusterfs", "v1.GlusterfsPersistentVolumeSource"),
            ("nfs", "v1.NFSVolumeSource"),
            ("rbd", "v1.RBDPersistentVolumeSource"),
            ("iscsi", "v1.ISCSIPersistentVolumeSource"),
            ("cinder", "v1.CinderPersistentVolumeSource"),
            ("cephfs", "v1.CephFSPersistentVolumeSource"),
            ("fc", "v1.FCVolumeSource"),
            ("flocker", "v1.FlockerVolumeSource"),
            ("flexVolume", "v1.FlexPersistentVolumeSource"),
            ("azureFile", "v1.AzureFilePersistentVolumeSource"),
            ("vsphereVolume", "v1.VsphereVirtualDiskVolumeSource"),
            ("quobyte", "v1.QuobyteVolumeSource"),
            ("azureDisk", "v1.AzureDiskVolumeSource"),
            ("photonPersistentDisk", "v1.PhotonPersistentDiskVolumeSource"),
            ("portworxVolume", "v1.PortworxVolumeSource"),
            ("scaleIO", "v1.ScaleIOPersistentVolumeSource"),
            ("local", "v1.LocalVolumeSource"),
            ("storageos", "v1.StorageOSPersistentVolumeSource"),
            ("csi", "v1.CSIPersistentVolumeSource"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeSpec",
        &[
            ("capacity", "v1.ResourceList"),
            ("gcePersistentDisk", "v1.GCEPersistentDiskVolumeSource"),
            ("awsElasticBlockStore", "v1.AWSElasticBlockStoreVolumeSource"),
            ("hostPath", "v1.HostPathVolumeSource"),
            ("glusterfs", "v1.GlusterfsPersistentVolumeSource"),
            ("nfs", "v1.NFSVolumeSource"),
            ("rbd", "v1.RBDPersistentVolumeSource"),
            ("iscsi", "v1.ISCSIPersistentVolumeSource"),
            ("cinder", "v1.CinderPersistentVolumeSource"),
            ("cephfs", "v1.CephFSPersistentVolumeSource"),
            ("fc", "v1.FCVolumeSource"),
            ("flocker", "v1.FlockerVolumeSource"),
            ("flexVolume", "v1.FlexPersistentVolumeSource"),
            ("azureFile", "v1.AzureFilePersistentVolumeSource"),
            ("vsphereVolume", "v1.VsphereVirtualDiskVolumeSource"),
            ("quobyte", "v1.QuobyteVolumeSource"),
            ("azureDisk", "v1.AzureDiskVolumeSource"),
            ("photonPersistentDisk", "v1.PhotonPersistentDiskVolumeSource"),
            ("portworxVolume", "v1.PortworxVolumeSource"),
            ("scaleIO", "v1.ScaleIOPersistentVolumeSource"),
            ("local", "v1.LocalVolumeSource"),
            ("storageos", "v1.StorageOSPersistentVolumeSource"),
            ("csi", "v1.CSIPersistentVolumeSource"),
            ("accessModes", "[]v1.PersistentVolumeAccessMode"),
            ("claimRef", "v1.ObjectReference"),
            ("persistentVolumeReclaimPolicy", "v1.PersistentVolumeReclaimPolicy"),
            ("storageClassName", "string"),
            ("mountOptions", "[]string"),
            ("volumeMode", "v1.PersistentVolumeMode"),
            ("nodeAffinity", "v1.VolumeNodeAffinity"),
            ("volumeAttributesClassName", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PersistentVolumeStatus",
        &[
            ("phase", "v1.PersistentVolumePhase"),
            ("message", "string"),
            ("reason", "string"),
            ("lastPhaseTransitionTime", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PhotonPersistentDiskVolumeSource",
        &[("pdID", "string"), ("fsType", "string")],
    ),
    (
        "k8s.io.api.core.v1.Pod",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.PodSpec"),
            ("status", "v1.PodStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodAffinity",
        &[
            ("requiredDuringSchedulingIgnoredDuringExecution", "[]v1.PodAffinityTerm"),
            (
                "preferredDuringSchedulingIgnoredDuringExecution",
                "[]v1.WeightedPodAffinityTerm",
            ),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodAffinityTerm",
        &[
            ("labelSelector", "v1.LabelSelector"),
            ("namespaces", "[]string"),
            ("topologyKey", "string"),
            ("namespaceSelector", "v1.LabelSelector"),
            ("matchLabelKeys", "[]string"),
            ("mismatchLabelKeys", "[]string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodAntiAffinity",
        &[
            ("requiredDuringSchedulingIgnoredDuringExecution", "[]v1.PodAffinityTerm"),
            (
                "preferredDuringSchedulingIgnoredDuringExecution",
                "[]v1.WeightedPodAffinityTerm",
            ),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodAttachOptions",
        &[
            ("stdin", "bool"),
            ("stdout", "bool"),
            ("stderr", "bool"),
            ("tty", "bool"),
            ("container", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodCertificateProjection",
        &[
            ("signerName", "string"),
            ("keyType", "string"),
            ("maxExpirationSeconds", "int32"),
            ("credentialBundlePath", "string"),
            ("keyPath", "string"),
            ("certificateChainPath", "string"),
            ("userAnnotations", "map[string]string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodCondition",
        &[
            ("type", "v1.PodConditionType"),
            ("observedGeneration", "int64"),
            ("status", "v1.ConditionStatus"),
            ("lastProbeTime", "v1.Time"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodDNSConfig",
        &[
            ("nameservers", "[]string"),
            ("searches", "[]string"),
            ("options", "[]v1.PodDNSConfigOption"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodDNSConfigOption",
        &[("name", "string"), ("value", "string")],
    ),
    (
        "k8s.io.api.core.v1.PodExecOptions",
        &[
            ("stdin", "bool"),
            ("stdout", "bool"),
            ("stderr", "bool"),
            ("tty", "bool"),
            ("container", "string"),
            ("command", "[]string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodExtendedResourceClaimStatus",
        &[
            ("requestMappings", "[]v1.ContainerExtendedResourceRequest"),
            ("resourceClaimName", "string"),
        ],
    ),
    ("k8s.io.api.core.v1.PodIP", &[("ip", "string")]),
    (
        "k8s.io.api.core.v1.PodList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Pod")],
    ),
    (
        "k8s.io.api.core.v1.PodLogOptions",
        &[
            ("container", "string"),
            ("follow", "bool"),
            ("previous", "bool"),
            ("sinceSeconds", "int64"),
            ("sinceTime", "v1.Time"),
            ("timestamps", "bool"),
            ("tailLines", "int64"),
            ("limitBytes", "int64"),
            ("insecureSkipTLSVerifyBackend", "bool"),
            ("stream", "string"),
        ],
    ),
    ("k8s.io.api.core.v1.PodOS", &[("name", "v1.OSName")]),
    ("k8s.io.api.core.v1.PodPortForwardOptions", &[("ports", "[]int32")]),
    ("k8s.io.api.core.v1.PodProxyOptions", &[("path", "string")]),
    (
        "k8s.io.api.core.v1.PodReadinessGate",
        &[("conditionType", "v1.PodConditionType")],
    ),
    (
        "k8s.io.api.core.v1.PodResourceClaim",
        &[
            ("name", "string"),
            ("resourceClaimName", "string"),
            ("resourceClaimTemplateName", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodResourceClaimStatus",
        &[("name", "string"), ("resourceClaimName", "string")],
    ),
    ("k8s.io.api.core.v1.PodSchedulingGate", &[("name", "string")]),
    ("k8s.io.api.core.v1.PodSchedulingGroup", &[("podGroupName", "string")]),
    (
        "k8s.io.api.core.v1.PodSecurityContext",
        &[
            ("seLinuxOptions", "v1.SELinuxOptions"),
            ("windowsOptions", "v1.WindowsSecurityContextOptions"),
            ("runAsUser", "int64"),
            ("runAsGroup", "int64"),
            ("runAsNonRoot", "bool"),
            ("supplementalGroups", "[]int64"),
            ("supplementalGroupsPolicy", "v1.SupplementalGroupsPolicy"),
            ("fsGroup", "int64"),
            ("sysctls", "[]v1.Sysctl"),
            ("fsGroupChangePolicy", "v1.PodFSGroupChangePolicy"),
            ("seccompProfile", "v1.SeccompProfile"),
            ("appArmorProfile", "v1.AppArmorProfile"),
            ("seLinuxChangePolicy", "v1.PodSELinuxChangePolicy"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodSignature",
        &[("podController", "v1.OwnerReference")],
    ),
    (
        "k8s.io.api.core.v1.PodSpec",
        &[
            ("volumes", "[]v1.Volume"),
            ("initContainers", "[]v1.Container"),
            ("containers", "[]v1.Container"),
            ("ephemeralContainers", "[]v1.EphemeralContainer"),
            ("restartPolicy", "v1.RestartPolicy"),
            ("terminationGracePeriodSeconds", "int64"),
            ("activeDeadlineSeconds", "int64"),
            ("dnsPolicy", "v1.DNSPolicy"),
            ("nodeSelector", "map[string]string"),
            ("serviceAccountName", "string"),
            ("serviceAccount", "string"),
            ("automountServiceAccountToken", "bool"),
            ("nodeName", "string"),
            ("hostNetwork", "bool"),
            ("hostPID", "bool"),
            ("hostIPC", "bool"),
            ("shareProcessNamespace", "bool"),
            ("securityContext", "v1.PodSecurityContext"),
            ("imagePullSecrets", "[]v1.LocalObjectReference"),
            ("hostname", "string"),
            ("subdomain", "string"),
            ("affinity", "v1.Affinity"),
            ("schedulerName", "string"),
            ("tolerations", "[]v1.Toleration"),
            ("hostAliases", "[]v1.HostAlias"),
            ("priorityClassName", "string"),
            ("priority", "int32"),
            ("dnsConfig", "v1.PodDNSConfig"),
            ("readinessGates", "[]v1.PodReadinessGate"),
            ("runtimeClassName", "string"),
            ("enableServiceLinks", "bool"),
            ("preemptionPolicy", "v1.PreemptionPolicy"),
            ("overhead", "v1.ResourceList"),
            ("topologySpreadConstraints", "[]v1.TopologySpreadConstraint"),
            ("setHostnameAsFQDN", "bool"),
            ("os", "v1.PodOS"),
            ("hostUsers", "bool"),
            ("schedulingGates", "[]v1.PodSchedulingGate"),
            ("resourceClaims", "[]v1.PodResourceClaim"),
            ("resources", "v1.ResourceRequirements"),
            ("hostnameOverride", "string"),
            ("schedulingGroup", "v1.PodSchedulingGroup"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodStatus",
        &[
            ("observedGeneration", "int64"),
            ("phase", "v1.PodPhase"),
            ("conditions", "[]v1.PodCondition"),
            ("message", "string"),
            ("reason", "string"),
            ("nominatedNodeName", "string"),
            ("hostIP", "string"),
            ("hostIPs", "[]v1.HostIP"),
            ("podIP", "string"),
            ("podIPs", "[]v1.PodIP"),
            ("startTime", "v1.Time"),
            ("initContainerStatuses", "[]v1.ContainerStatus"),
            ("containerStatuses", "[]v1.ContainerStatus"),
            ("qosClass", "v1.PodQOSClass"),
            ("ephemeralContainerStatuses", "[]v1.ContainerStatus"),
            ("resize", "v1.PodResizeStatus"),
            ("resourceClaimStatuses", "[]v1.PodResourceClaimStatus"),
            ("extendedResourceClaimStatus", "v1.PodExtendedResourceClaimStatus"),
            ("allocatedResources", "v1.ResourceList"),
            ("resources", "v1.ResourceRequirements"),
            (
                "nodeAllocatableResourceClaimStatuses",
                "[]v1.NodeAllocatableResourceClaimStatus",
            ),
        ],
    ),
    (
        "k8s.io.api.core.v1.PodTemplate",
        &[("metadata", "v1.ObjectMeta"), ("template", "v1.PodTemplateSpec")],
    ),
    (
        "k8s.io.api.core.v1.PodTemplateList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.PodTemplate")],
    ),
    (
        "k8s.io.api.core.v1.PodTemplateSpec",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.PodSpec")],
    ),
    (
        "k8s.io.api.core.v1.PortStatus",
        &[("port", "int32"), ("protocol", "v1.Protocol"), ("error", "string")],
    ),
    (
        "k8s.io.api.core.v1.PortworxVolumeSource",
        &[("volumeID", "string"), ("fsType", "string"), ("readOnly", "bool")],
    ),
    ("k8s.io.api.core.v1.Preconditions", &[("uid", "types.UID")]),
    (
        "k8s.io.api.core.v1.PreferAvoidPodsEntry",
        &[
            ("podSignature", "v1.PodSignature"),
            ("evictionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.PreferredSchedulingTerm",
        &[("weight", "int32"), ("preference", "v1.NodeSelectorTerm")],
    ),
    (
        "k8s.io.api.core.v1.Probe",
        &[
            ("exec", "v1.ExecAction"),
            ("httpGet", "v1.HTTPGetAction"),
            ("tcpSocket", "v1.TCPSocketAction"),
            ("grpc", "v1.GRPCAction"),
            ("initialDelaySeconds", "int32"),
            ("timeoutSeconds", "int32"),
            ("periodSeconds", "int32"),
            ("successThreshold", "int32"),
            ("failureThreshold", "int32"),
            ("terminationGracePeriodSeconds", "int64"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ProbeHandler",
        &[
            ("exec", "v1.ExecAction"),
            ("httpGet", "v1.HTTPGetAction"),
            ("tcpSocket", "v1.TCPSocketAction"),
            ("grpc", "v1.GRPCAction"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ProjectedVolumeSource",
        &[("sources", "[]v1.VolumeProjection"), ("defaultMode", "int32")],
    ),
    (
        "k8s.io.api.core.v1.QuobyteVolumeSource",
        &[
            ("registry", "string"),
            ("volume", "string"),
            ("readOnly", "bool"),
            ("user", "string"),
            ("group", "string"),
            ("tenant", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.RBDPersistentVolumeSource",
        &[
            ("monitors", "[]string"),
            ("image", "string"),
            ("fsType", "string"),
            ("pool", "string"),
            ("user", "string"),
            ("keyring", "string"),
            ("secretRef", "v1.SecretReference"),
            ("readOnly", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.RBDVolumeSource",
        &[
            ("monitors", "[]string"),
            ("image", "string"),
            ("fsType", "string"),
            ("pool", "string"),
            ("user", "string"),
            ("keyring", "string"),
            ("secretRef", "v1.LocalObjectReference"),
            ("readOnly", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.RangeAllocation",
        &[("metadata", "v1.ObjectMeta"), ("range", "string"), ("data", "[]uint8")],
    ),
    (
        "k8s.io.api.core.v1.ReplicationController",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.ReplicationControllerSpec"),
            ("status", "v1.ReplicationControllerStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ReplicationControllerCondition",
        &[
            ("type", "v1.ReplicationControllerConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ReplicationControllerList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ReplicationController")],
    ),
    (
        "k8s.io.api.core.v1.ReplicationControllerSpec",
        &[
            ("replicas", "int32"),
            ("minReadySeconds", "int32"),
            ("selector", "map[string]string"),
            ("template", "v1.PodTemplateSpec"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ReplicationControllerStatus",
        &[
            ("replicas", "int32"),
            ("fullyLabeledReplicas", "int32"),
            ("readyReplicas", "int32"),
            ("availableReplicas", "int32"),
            ("observedGeneration", "int64"),
            ("conditions", "[]v1.ReplicationControllerCondition"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ResourceClaim",
        &[("name", "string"), ("request", "string")],
    ),
    (
        "k8s.io.api.core.v1.ResourceFieldSelector",
        &[
            ("containerName", "string"),
            ("resource", "string"),
            ("divisor", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ResourceHealth",
        &[
            ("resourceID", "v1.ResourceID"),
            ("health", "v1.ResourceHealthStatus"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ResourceQuota",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.ResourceQuotaSpec"),
            ("status", "v1.ResourceQuotaStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ResourceQuotaList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ResourceQuota")],
    ),
    (
        "k8s.io.api.core.v1.ResourceQuotaSpec",
        &[
            ("hard", "v1.ResourceList"),
            ("scopes", "[]v1.ResourceQuotaScope"),
            ("scopeSelector", "v1.ScopeSelector"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ResourceQuotaStatus",
        &[("hard", "v1.ResourceList"), ("used", "v1.ResourceList")],
    ),
    (
        "k8s.io.api.core.v1.ResourceRequirements",
        &[
            ("limits", "v1.ResourceList"),
            ("requests", "v1.ResourceList"),
            ("claims", "[]v1.ResourceClaim"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ResourceStatus",
        &[("name", "v1.ResourceName"), ("resources", "[]v1.ResourceHealth")],
    ),
    (
        "k8s.io.api.core.v1.SELinuxOptions",
        &[
            ("user", "string"),
            ("role", "string"),
            ("type", "string"),
            ("level", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ScaleIOPersistentVolumeSource",
        &[
            ("gateway", "string"),
            ("system", "string"),
            ("secretRef", "v1.SecretReference"),
            ("sslEnabled", "bool"),
            ("protectionDomain", "string"),
            ("storagePool", "string"),
            ("storageMode", "string"),
            ("volumeName", "string"),
            ("fsType", "string"),
            ("readOnly", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ScaleIOVolumeSource",
        &[
            ("gateway", "string"),
            ("system", "string"),
            ("secretRef", "v1.LocalObjectReference"),
            ("sslEnabled", "bool"),
            ("protectionDomain", "string"),
            ("storagePool", "string"),
            ("storageMode", "string"),
            ("volumeName", "string"),
            ("fsType", "string"),
            ("readOnly", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ScopeSelector",
        &[("matchExpressions", "[]v1.ScopedResourceSelectorRequirement")],
    ),
    (
        "k8s.io.api.core.v1.ScopedResourceSelectorRequirement",
        &[
            ("scopeName", "v1.ResourceQuotaScope"),
            ("operator", "v1.ScopeSelectorOperator"),
            ("values", "[]string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.SeccompProfile",
        &[("type", "v1.SeccompProfileType"), ("localhostProfile", "string")],
    ),
    (
        "k8s.io.api.core.v1.Secret",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("immutable", "bool"),
            ("data", "map[string][]uint8"),
            ("stringData", "map[string]string"),
            ("type", "v1.SecretType"),
        ],
    ),
    (
        "k8s.io.api.core.v1.SecretEnvSource",
        &[("name", "string"), ("optional", "bool")],
    ),
    (
        "k8s.io.api.core.v1.SecretKeySelector",
        &[("name", "string"), ("key", "string"), ("optional", "bool")],
    ),
    (
        "k8s.io.api.core.v1.SecretList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Secret")],
    ),
    (
        "k8s.io.api.core.v1.SecretProjection",
        &[("name", "string"), ("items", "[]v1.KeyToPath"), ("optional", "bool")],
    ),
    (
        "k8s.io.api.core.v1.SecretReference",
        &[("name", "string"), ("namespace", "string")],
    ),
    (
        "k8s.io.api.core.v1.SecretVolumeSource",
        &[
            ("secretName", "string"),
            ("items", "[]v1.KeyToPath"),
            ("defaultMode", "int32"),
            ("optional", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.SecurityContext",
        &[
            ("capabilities", "v1.Capabilities"),
            ("privileged", "bool"),
            ("seLinuxOptions", "v1.SELinuxOptions"),
            ("windowsOptions", "v1.WindowsSecurityContextOptions"),
            ("runAsUser", "int64"),
            ("runAsGroup", "int64"),
            ("runAsNonRoot", "bool"),
            ("readOnlyRootFilesystem", "bool"),
            ("allowPrivilegeEscalation", "bool"),
            ("procMount", "v1.ProcMountType"),
            ("seccompProfile", "v1.SeccompProfile"),
            ("appArmorProfile", "v1.AppArmorProfile"),
        ],
    ),
    (
        "k8s.io.api.core.v1.SerializedReference",
        &[("reference", "v1.ObjectReference")],
    ),
    (
        "k8s.io.api.core.v1.Service",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.ServiceSpec"),
            ("status", "v1.ServiceStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ServiceAccount",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("secrets", "[]v1.ObjectReference"),
            ("imagePullSecrets", "[]v1.LocalObjectReference"),
            ("automountServiceAccountToken", "bool"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ServiceAccountList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ServiceAccount")],
    ),
    (
        "k8s.io.api.core.v1.ServiceAccountTokenProjection",
        &[
            ("audience", "string"),
            ("expirationSeconds", "int64"),
            ("path", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ServiceList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Service")],
    ),
    (
        "k8s.io.api.core.v1.ServicePort",
        &[
            ("name", "string"),
            ("protocol", "v1.Protocol"),
            ("appProtocol", "string"),
            ("port", "int32"),
            ("targetPort", "intstr.IntOrString"),
            ("nodePort", "int32"),
        ],
    ),
    ("k8s.io.api.core.v1.ServiceProxyOptions", &[("path", "string")]),
    (
        "k8s.io.api.core.v1.ServiceSpec",
        &[
            ("ports", "[]v1.ServicePort"),
            ("selector", "map[string]string"),
            ("clusterIP", "string"),
            ("clusterIPs", "[]string"),
            ("type", "v1.ServiceType"),
            ("externalIPs", "[]string"),
            ("sessionAffinity", "v1.ServiceAffinity"),
            ("loadBalancerIP", "string"),
            ("loadBalancerSourceRanges", "[]string"),
            ("externalName", "string"),
            ("externalTrafficPolicy", "v1.ServiceExternalTrafficPolicy"),
            ("healthCheckNodePort", "int32"),
            ("publishNotReadyAddresses", "bool"),
            ("sessionAffinityConfig", "v1.SessionAffinityConfig"),
            ("ipFamilies", "[]v1.IPFamily"),
            ("ipFamilyPolicy", "v1.IPFamilyPolicy"),
            ("allocateLoadBalancerNodePorts", "bool"),
            ("loadBalancerClass", "string"),
            ("internalTrafficPolicy", "v1.ServiceInternalTrafficPolicy"),
            ("trafficDistribution", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.ServiceStatus",
        &[
            ("loadBalancer", "v1.LoadBalancerStatus"),
            ("conditions", "[]v1.Condition"),
        ],
    ),
    (
        "k8s.io.api.core.v1.SessionAffinityConfig",
        &[("clientIP", "v1.ClientIPConfig")],
    ),
    ("k8s.io.api.core.v1.SleepAction", &[("seconds", "int64")]),
    (
        "k8s.io.api.core.v1.StorageOSPersistentVolumeSource",
        &[
            ("volumeName", "string"),
            ("volumeNamespace", "string"),
            ("fsType", "string"),
            ("readOnly", "bool"),
            ("secretRef", "v1.ObjectReference"),
        ],
    ),
    (
        "k8s.io.api.core.v1.StorageOSVolumeSource",
        &[
            ("volumeName", "string"),
            ("volumeNamespace", "string"),
            ("fsType", "string"),
            ("readOnly", "bool"),
            ("secretRef", "v1.LocalObjectReference"),
        ],
    ),
    ("k8s.io.api.core.v1.Sysctl", &[("name", "string"), ("value", "string")]),
    (
        "k8s.io.api.core.v1.TCPSocketAction",
        &[("port", "intstr.IntOrString"), ("host", "string")],
    ),
    (
        "k8s.io.api.core.v1.Taint",
        &[
            ("key", "string"),
            ("value", "string"),
            ("effect", "v1.TaintEffect"),
            ("timeAdded", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.core.v1.Toleration",
        &[
            ("key", "string"),
            ("operator", "v1.TolerationOperator"),
            ("value", "string"),
            ("effect", "v1.TaintEffect"),
            ("tolerationSeconds", "int64"),
        ],
    ),
    (
        "k8s.io.api.core.v1.TopologySelectorLabelRequirement",
        &[("key", "string"), ("values", "[]string")],
    ),
    (
        "k8s.io.api.core.v1.TopologySelectorTerm",
        &[("matchLabelExpressions", "[]v1.TopologySelectorLabelRequirement")],
    ),
    (
        "k8s.io.api.core.v1.TopologySpreadConstraint",
        &[
            ("maxSkew", "int32"),
            ("topologyKey", "string"),
            ("whenUnsatisfiable", "v1.UnsatisfiableConstraintAction"),
            ("labelSelector", "v1.LabelSelector"),
            ("minDomains", "int32"),
            ("nodeAffinityPolicy", "v1.NodeInclusionPolicy"),
            ("nodeTaintsPolicy", "v1.NodeInclusionPolicy"),
            ("matchLabelKeys", "[]string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.TypedLocalObjectReference",
        &[("apiGroup", "string"), ("kind", "string"), ("name", "string")],
    ),
    (
        "k8s.io.api.core.v1.TypedObjectReference",
        &[
            ("apiGroup", "string"),
            ("kind", "string"),
            ("name", "string"),
            ("namespace", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.Volume",
        &[
            ("name", "string"),
            ("hostPath", "v1.HostPathVolumeSource"),
            ("emptyDir", "v1.EmptyDirVolumeSource"),
            ("gcePersistentDisk", "v1.GCEPersistentDiskVolumeSource"),
            ("awsElasticBlockStore", "v1.AWSElasticBlockStoreVolumeSource"),
            ("gitRepo", "v1.GitRepoVolumeSource"),
            ("secret", "v1.SecretVolumeSource"),
            ("nfs", "v1.NFSVolumeSource"),
            ("iscsi", "v1.ISCSIVolumeSource"),
            ("glusterfs", "v1.GlusterfsVolumeSource"),
            ("persistentVolumeClaim", "v1.PersistentVolumeClaimVolumeSource"),
            ("rbd", "v1.RBDVolumeSource"),
            ("flexVolume", "v1.FlexVolumeSource"),
            ("cinder", "v1.CinderVolumeSource"),
            ("cephfs", "v1.CephFSVolumeSource"),
            ("flocker", "v1.FlockerVolumeSource"),
            ("downwardAPI", "v1.DownwardAPIVolumeSource"),
            ("fc", "v1.FCVolumeSource"),
            ("azureFile", "v1.AzureFileVolumeSource"),
            ("configMap", "v1.ConfigMapVolumeSource"),
            ("vsphereVolume", "v1.VsphereVirtualDiskVolumeSource"),
            ("quobyte", "v1.QuobyteVolumeSource"),
            ("azureDisk", "v1.AzureDiskVolumeSource"),
            ("photonPersistentDisk", "v1.PhotonPersistentDiskVolumeSource"),
            ("projected", "v1.ProjectedVolumeSource"),
            ("portworxVolume", "v1.PortworxVolumeSource"),
            ("scaleIO", "v1.ScaleIOVolumeSource"),
            ("storageos", "v1.StorageOSVolumeSource"),
            ("csi", "v1.CSIVolumeSource"),
            ("ephemeral", "v1.EphemeralVolumeSource"),
            ("image", "v1.ImageVolumeSource"),
        ],
    ),
    (
        "k8s.io.api.core.v1.VolumeDevice",
        &[("name", "string"), ("devicePath", "string")],
    ),
    (
        "k8s.io.api.core.v1.VolumeMount",
        &[
            ("name", "string"),
            ("readOnly", "bool"),
            ("recursiveReadOnly", "v1.RecursiveReadOnlyMode"),
            ("mountPath", "string"),
            ("subPath", "string"),
            ("mountPropagation", "v1.MountPropagationMode"),
            ("subPathExpr", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.VolumeMountStatus",
        &[
            ("name", "string"),
            ("mountPath", "string"),
            ("readOnly", "bool"),
            ("recursiveReadOnly", "v1.RecursiveReadOnlyMode"),
            ("volumeStatus", "v1.VolumeStatus"),
        ],
    ),
    (
        "k8s.io.api.core.v1.VolumeNodeAffinity",
        &[("required", "v1.NodeSelector")],
    ),
    (
        "k8s.io.api.core.v1.VolumeProjection",
        &[
            ("secret", "v1.SecretProjection"),
            ("downwardAPI", "v1.DownwardAPIProjection"),
            ("configMap", "v1.ConfigMapProjection"),
            ("serviceAccountToken", "v1.ServiceAccountTokenProjection"),
            ("clusterTrustBundle", "v1.ClusterTrustBundleProjection"),
            ("podCertificate", "v1.PodCertificateProjection"),
        ],
    ),
    (
        "k8s.io.api.core.v1.VolumeResourceRequirements",
        &[("limits", "v1.ResourceList"), ("requests", "v1.ResourceList")],
    ),
    (
        "k8s.io.api.core.v1.VolumeSource",
        &[
            ("hostPath", "v1.HostPathVolumeSource"),
            ("emptyDir", "v1.EmptyDirVolumeSource"),
            ("gcePersistentDisk", "v1.GCEPersistentDiskVolumeSource"),
            ("awsElasticBlockStore", "v1.AWSElasticBlockStoreVolumeSource"),
            ("gitRepo", "v1.GitRepoVolumeSource"),
            ("secret", "v1.SecretVolumeSource"),
            ("nfs", "v1.NFSVolumeSource"),
            ("iscsi", "v1.ISCSIVolumeSource"),
            ("glusterfs", "v1.GlusterfsVolumeSource"),
            ("persistentVolumeClaim", "v1.PersistentVolumeClaimVolumeSource"),
            ("rbd", "v1.RBDVolumeSource"),
            ("flexVolume", "v1.FlexVolumeSource"),
            ("cinder", "v1.CinderVolumeSource"),
            ("cephfs", "v1.CephFSVolumeSource"),
            ("flocker", "v1.FlockerVolumeSource"),
            ("downwardAPI", "v1.DownwardAPIVolumeSource"),
            ("fc", "v1.FCVolumeSource"),
            ("azureFile", "v1.AzureFileVolumeSource"),
            ("configMap", "v1.ConfigMapVolumeSource"),
            ("vsphereVolume", "v1.VsphereVirtualDiskVolumeSource"),
            ("quobyte", "v1.QuobyteVolumeSource"),
            ("azureDisk", "v1.AzureDiskVolumeSource"),
            ("photonPersistentDisk", "v1.PhotonPersistentDiskVolumeSource"),
            ("projected", "v1.ProjectedVolumeSource"),
            ("portworxVolume", "v1.PortworxVolumeSource"),
            ("scaleIO", "v1.ScaleIOVolumeSource"),
            ("storageos", "v1.StorageOSVolumeSource"),
            ("csi", "v1.CSIVolumeSource"),
            ("ephemeral", "v1.EphemeralVolumeSource"),
            ("image", "v1.ImageVolumeSource"),
        ],
    ),
    ("k8s.io.api.core.v1.VolumeStatus", &[("image", "v1.ImageVolumeStatus")]),
    (
        "k8s.io.api.core.v1.VsphereVirtualDiskVolumeSource",
        &[
            ("volumePath", "string"),
            ("fsType", "string"),
            ("storagePolicyName", "string"),
            ("storagePolicyID", "string"),
        ],
    ),
    (
        "k8s.io.api.core.v1.WeightedPodAffinityTerm",
        &[("weight", "int32"), ("podAffinityTerm", "v1.PodAffinityTerm")],
    ),
    (
        "k8s.io.api.core.v1.WindowsSecurityContextOptions",
        &[
            ("gmsaCredentialSpecName", "string"),
            ("gmsaCredentialSpec", "string"),
            ("runAsUserName", "string"),
            ("hostProcess", "bool"),
        ],
    ),
    (
        "k8s.io.api.discovery.v1.Endpoint",
        &[
            ("addresses", "[]string"),
            ("conditions", "v1.EndpointConditions"),
            ("hostname", "string"),
            ("targetRef", "v1.ObjectReference"),
            ("deprecatedTopology", "map[string]string"),
            ("nodeName", "string"),
            ("zone", "string"),
            ("hints", "v1.EndpointHints"),
        ],
    ),
    (
        "k8s.io.api.discovery.v1.EndpointConditions",
        &[("ready", "bool"), ("serving", "bool"), ("terminating", "bool")],
    ),
    (
        "k8s.io.api.discovery.v1.EndpointHints",
        &[("forZones", "[]v1.ForZone"), ("forNodes", "[]v1.ForNode")],
    ),
    (
        "k8s.io.api.discovery.v1.EndpointPort",
        &[
            ("name", "string"),
            ("protocol", "v1.Protocol"),
            ("port", "int32"),
            ("appProtocol", "string"),
        ],
    ),
    (
        "k8s.io.api.discovery.v1.EndpointSlice",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("addressType", "v1.AddressType"),
            ("endpoints", "[]v1.Endpoint"),
            ("ports", "[]v1.EndpointPort"),
        ],
    ),
    (
        "k8s.io.api.discovery.v1.EndpointSliceList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.EndpointSlice")],
    ),
    ("k8s.io.api.discovery.v1.ForNode", &[("name", "string")]),
    ("k8s.io.api.discovery.v1.ForZone", &[("name", "string")]),
    (
        "k8s.io.api.discovery.v1beta1.Endpoint",
        &[
            ("addresses", "[]string"),
            ("conditions", "v1beta1.EndpointConditions"),
            ("hostname", "string"),
            ("targetRef", "v1.ObjectReference"),
            ("topology", "map[string]string"),
            ("nodeName", "string"),
            ("hints", "v1beta1.EndpointHints"),
        ],
    ),
    (
        "k8s.io.api.discovery.v1beta1.EndpointConditions",
        &[("ready", "bool"), ("serving", "bool"), ("terminating", "bool")],
    ),
    (
        "k8s.io.api.discovery.v1beta1.EndpointHints",
        &[("forZones", "[]v1beta1.ForZone"), ("forNodes", "[]v1beta1.ForNode")],
    ),
    (
        "k8s.io.api.discovery.v1beta1.EndpointPort",
        &[
            ("name", "string"),
            ("protocol", "v1.Protocol"),
            ("port", "int32"),
            ("appProtocol", "string"),
        ],
    ),
    (
        "k8s.io.api.discovery.v1beta1.EndpointSlice",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("addressType", "v1beta1.AddressType"),
            ("endpoints", "[]v1beta1.Endpoint"),
            ("ports", "[]v1beta1.EndpointPort"),
        ],
    ),
    (
        "k8s.io.api.discovery.v1beta1.EndpointSliceList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.EndpointSlice")],
    ),
    ("k8s.io.api.discovery.v1beta1.ForNode", &[("name", "string")]),
    ("k8s.io.api.discovery.v1beta1.ForZone", &[("name", "string")]),
    (
        "k8s.io.api.events.v1.Event",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("eventTime", "v1.MicroTime"),
            ("series", "v1.EventSeries"),
            ("reportingController", "string"),
            ("reportingInstance", "string"),
            ("action", "string"),
            ("reason", "string"),
            ("regarding", "v1.ObjectReference"),
            ("related", "v1.ObjectReference"),
            ("note", "string"),
            ("type", "string"),
            ("deprecatedSource", "v1.EventSource"),
            ("deprecatedFirstTimestamp", "v1.Time"),
            ("deprecatedLastTimestamp", "v1.Time"),
            ("deprecatedCount", "int32"),
        ],
    ),
    (
        "k8s.io.api.events.v1.EventList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Event")],
    ),
    (
        "k8s.io.api.events.v1.EventSeries",
        &[("count", "int32"), ("lastObservedTime", "v1.MicroTime")],
    ),
    (
        "k8s.io.api.events.v1beta1.Event",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("eventTime", "v1.MicroTime"),
            ("series", "v1beta1.EventSeries"),
            ("reportingController", "string"),
            ("reportingInstance", "string"),
            ("action", "string"),
            ("reason", "string"),
            ("regarding", "v1.ObjectReference"),
            ("related", "v1.ObjectReference"),
            ("note", "string"),
            ("type", "string"),
            ("deprecatedSource", "v1.EventSource"),
            ("deprecatedFirstTimestamp", "v1.Time"),
            ("deprecatedLastTimestamp", "v1.Time"),
            ("deprecatedCount", "int32"),
        ],
    ),
    (
        "k8s.io.api.events.v1beta1.EventList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.Event")],
    ),
    (
        "k8s.io.api.events.v1beta1.EventSeries",
        &[("count", "int32"), ("lastObservedTime", "v1.MicroTime")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSet",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.DaemonSetSpec"),
            ("status", "v1beta1.DaemonSetStatus"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetCondition",
        &[
            ("type", "v1beta1.DaemonSetConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.DaemonSet")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetSpec",
        &[
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
            ("updateStrategy", "v1beta1.DaemonSetUpdateStrategy"),
            ("minReadySeconds", "int32"),
            ("templateGeneration", "int64"),
            ("revisionHistoryLimit", "int32"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetStatus",
        &[
            ("currentNumberScheduled", "int32"),
            ("numberMisscheduled", "int32"),
            ("desiredNumberScheduled", "int32"),
            ("numberReady", "int32"),
            ("observedGeneration", "int64"),
            ("updatedNumberScheduled", "int32"),
            ("numberAvailable", "int32"),
            ("numberUnavailable", "int32"),
            ("collisionCount", "int32"),
            ("conditions", "[]v1beta1.DaemonSetCondition"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DaemonSetUpdateStrategy",
        &[
            ("type", "v1beta1.DaemonSetUpdateStrategyType"),
            ("rollingUpdate", "v1beta1.RollingUpdateDaemonSet"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.Deployment",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.DeploymentSpec"),
            ("status", "v1beta1.DeploymentStatus"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentCondition",
        &[
            ("type", "v1beta1.DeploymentConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastUpdateTime", "v1.Time"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.Deployment")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentRollback",
        &[
            ("name", "string"),
            ("updatedAnnotations", "map[string]string"),
            ("rollbackTo", "v1beta1.RollbackConfig"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentSpec",
        &[
            ("replicas", "int32"),
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
            ("strategy", "v1beta1.DeploymentStrategy"),
            ("minReadySeconds", "int32"),
            ("revisionHistoryLimit", "int32"),
            ("paused", "bool"),
            ("rollbackTo", "v1beta1.RollbackConfig"),
            ("progressDeadlineSeconds", "int32"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentStatus",
        &[
            ("observedGeneration", "int64"),
            ("replicas", "int32"),
            ("updatedReplicas", "int32"),
            ("readyReplicas", "int32"),
            ("availableReplicas", "int32"),
            ("unavailableReplicas", "int32"),
            ("terminatingReplicas", "int32"),
            ("conditions", "[]v1beta1.DeploymentCondition"),
            ("collisionCount", "int32"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.DeploymentStrategy",
        &[
            ("type", "v1beta1.DeploymentStrategyType"),
            ("rollingUpdate", "v1beta1.RollingUpdateDeployment"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.HTTPIngressPath",
        &[
            ("path", "string"),
            ("pathType", "v1beta1.PathType"),
            ("backend", "v1beta1.IngressBackend"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.HTTPIngressRuleValue",
        &[("paths", "[]v1beta1.HTTPIngressPath")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IPBlock",
        &[("cidr", "string"), ("except", "[]string")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.Ingress",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.IngressSpec"),
            ("status", "v1beta1.IngressStatus"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressBackend",
        &[
            ("serviceName", "string"),
            ("servicePort", "intstr.IntOrString"),
            ("resource", "v1.TypedLocalObjectReference"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.Ingress")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressLoadBalancerIngress",
        &[
            ("ip", "string"),
            ("hostname", "string"),
            ("ports", "[]v1beta1.IngressPortStatus"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressLoadBalancerStatus",
        &[("ingress", "[]v1beta1.IngressLoadBalancerIngress")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressPortStatus",
        &[("port", "int32"), ("protocol", "v1.Protocol"), ("error", "string")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressRule",
        &[("host", "string"), ("http", "v1beta1.HTTPIngressRuleValue")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressRuleValue",
        &[("http", "v1beta1.HTTPIngressRuleValue")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressSpec",
        &[
            ("ingressClassName", "string"),
            ("backend", "v1beta1.IngressBackend"),
            ("tls", "[]v1beta1.IngressTLS"),
            ("rules", "[]v1beta1.IngressRule"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressStatus",
        &[("loadBalancer", "v1beta1.IngressLoadBalancerStatus")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.IngressTLS",
        &[("hosts", "[]string"), ("secretName", "string")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicy",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta1.NetworkPolicySpec")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicyEgressRule",
        &[
            ("ports", "[]v1beta1.NetworkPolicyPort"),
            ("to", "[]v1beta1.NetworkPolicyPeer"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicyIngressRule",
        &[
            ("ports", "[]v1beta1.NetworkPolicyPort"),
            ("from", "[]v1beta1.NetworkPolicyPeer"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicyList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.NetworkPolicy")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicyPeer",
        &[
            ("podSelector", "v1.LabelSelector"),
            ("namespaceSelector", "v1.LabelSelector"),
            ("ipBlock", "v1beta1.IPBlock"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicyPort",
        &[
            ("protocol", "v1.Protocol"),
            ("port", "intstr.IntOrString"),
            ("endPort", "int32"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.NetworkPolicySpec",
        &[
            ("podSelector", "v1.LabelSelector"),
            ("ingress", "[]v1beta1.NetworkPolicyIngressRule"),
            ("egress", "[]v1beta1.NetworkPolicyEgressRule"),
            ("policyTypes", "[]v1beta1.PolicyType"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.ReplicaSet",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.ReplicaSetSpec"),
            ("status", "v1beta1.ReplicaSetStatus"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.ReplicaSetCondition",
        &[
            ("type", "v1beta1.ReplicaSetConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.ReplicaSetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.ReplicaSet")],
    ),
    (
        "k8s.io.api.extensions.v1beta1.ReplicaSetSpec",
        &[
            ("replicas", "int32"),
            ("minReadySeconds", "int32"),
            ("selector", "v1.LabelSelector"),
            ("template", "v1.PodTemplateSpec"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.ReplicaSetStatus",
        &[
            ("replicas", "int32"),
            ("fullyLabeledReplicas", "int32"),
            ("readyReplicas", "int32"),
            ("availableReplicas", "int32"),
            ("terminatingReplicas", "int32"),
            ("observedGeneration", "int64"),
            ("conditions", "[]v1beta1.ReplicaSetCondition"),
        ],
    ),
    ("k8s.io.api.extensions.v1beta1.RollbackConfig", &[("revision", "int64")]),
    (
        "k8s.io.api.extensions.v1beta1.RollingUpdateDaemonSet",
        &[
            ("maxUnavailable", "intstr.IntOrString"),
            ("maxSurge", "intstr.IntOrString"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.RollingUpdateDeployment",
        &[
            ("maxUnavailable", "intstr.IntOrString"),
            ("maxSurge", "intstr.IntOrString"),
        ],
    ),
    (
        "k8s.io.api.extensions.v1beta1.Scale",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.ScaleSpec"),
            ("status", "v1beta1.ScaleStatus"),
        ],
    ),
    ("k8s.io.api.extensions.v1beta1.ScaleSpec", &[("replicas", "int32")]),
    (
        "k8s.io.api.extensions.v1beta1.ScaleStatus",
        &[
            ("replicas", "int32"),
            ("selector", "map[string]string"),
            ("targetSelector", "string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.ExemptPriorityLevelConfiguration",
        &[("nominalConcurrencyShares", "int32"), ("lendablePercent", "int32")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.FlowDistinguisherMethod",
        &[("type", "v1.FlowDistinguisherMethodType")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.FlowSchema",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.FlowSchemaSpec"),
            ("status", "v1.FlowSchemaStatus"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.FlowSchemaCondition",
        &[
            ("type", "v1.FlowSchemaConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.FlowSchemaList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.FlowSchema")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.FlowSchemaSpec",
        &[
            ("priorityLevelConfiguration", "v1.PriorityLevelConfigurationReference"),
            ("matchingPrecedence", "int32"),
            ("distinguisherMethod", "v1.FlowDistinguisherMethod"),
            ("rules", "[]v1.PolicyRulesWithSubjects"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.FlowSchemaStatus",
        &[("conditions", "[]v1.FlowSchemaCondition")],
    ),
    ("k8s.io.api.flowcontrol.v1.GroupSubject", &[("name", "string")]),
    (
        "k8s.io.api.flowcontrol.v1.LimitResponse",
        &[("type", "v1.LimitResponseType"), ("queuing", "v1.QueuingConfiguration")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.LimitedPriorityLevelConfiguration",
        &[
            ("nominalConcurrencyShares", "int32"),
            ("limitResponse", "v1.LimitResponse"),
            ("lendablePercent", "int32"),
            ("borrowingLimitPercent", "int32"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.NonResourcePolicyRule",
        &[("verbs", "[]string"), ("nonResourceURLs", "[]string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PolicyRulesWithSubjects",
        &[
            ("subjects", "[]v1.Subject"),
            ("resourceRules", "[]v1.ResourcePolicyRule"),
            ("nonResourceRules", "[]v1.NonResourcePolicyRule"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfiguration",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.PriorityLevelConfigurationSpec"),
            ("status", "v1.PriorityLevelConfigurationStatus"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationCondition",
        &[
            ("type", "v1.PriorityLevelConfigurationConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1.PriorityLevelConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationReference",
        &[("name", "string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationSpec",
        &[
            ("type", "v1.PriorityLevelEnablement"),
            ("limited", "v1.LimitedPriorityLevelConfiguration"),
            ("exempt", "v1.ExemptPriorityLevelConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationStatus",
        &[("conditions", "[]v1.PriorityLevelConfigurationCondition")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.QueuingConfiguration",
        &[
            ("queues", "int32"),
            ("handSize", "int32"),
            ("queueLengthLimit", "int32"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.ResourcePolicyRule",
        &[
            ("verbs", "[]string"),
            ("apiGroups", "[]string"),
            ("resources", "[]string"),
            ("clusterScope", "bool"),
            ("namespaces", "[]string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1.ServiceAccountSubject",
        &[("namespace", "string"), ("name", "string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1.Subject",
        &[
            ("kind", "v1.SubjectKind"),
            ("user", "v1.UserSubject"),
            ("group", "v1.GroupSubject"),
            ("serviceAccount", "v1.ServiceAccountSubject"),
        ],
    ),
    ("k8s.io.api.flowcontrol.v1.UserSubject", &[("name", "string")]),
    (
        "k8s.io.api.flowcontrol.v1beta1.ExemptPriorityLevelConfiguration",
        &[("nominalConcurrencyShares", "int32"), ("lendablePercent", "int32")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowDistinguisherMethod",
        &[("type", "v1beta1.FlowDistinguisherMethodType")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowSchema",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.FlowSchemaSpec"),
            ("status", "v1beta1.FlowSchemaStatus"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowSchemaCondition",
        &[
            ("type", "v1beta1.FlowSchemaConditionType"),
            ("status", "v1beta1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowSchemaList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.FlowSchema")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowSchemaSpec",
        &[
            (
                "priorityLevelConfiguration",
                "v1beta1.PriorityLevelConfigurationReference",
            ),
            ("matchingPrecedence", "int32"),
            ("distinguisherMethod", "v1beta1.FlowDistinguisherMethod"),
            ("rules", "[]v1beta1.PolicyRulesWithSubjects"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.FlowSchemaStatus",
        &[("conditions", "[]v1beta1.FlowSchemaCondition")],
    ),
    ("k8s.io.api.flowcontrol.v1beta1.GroupSubject", &[("name", "string")]),
    (
        "k8s.io.api.flowcontrol.v1beta1.LimitResponse",
        &[
            ("type", "v1beta1.LimitResponseType"),
            ("queuing", "v1beta1.QueuingConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.LimitedPriorityLevelConfiguration",
        &[
            ("assuredConcurrencyShares", "int32"),
            ("limitResponse", "v1beta1.LimitResponse"),
            ("lendablePercent", "int32"),
            ("borrowingLimitPercent", "int32"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.NonResourcePolicyRule",
        &[("verbs", "[]string"), ("nonResourceURLs", "[]string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PolicyRulesWithSubjects",
        &[
            ("subjects", "[]v1beta1.Subject"),
            ("resourceRules", "[]v1beta1.ResourcePolicyRule"),
            ("nonResourceRules", "[]v1beta1.NonResourcePolicyRule"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfiguration",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.PriorityLevelConfigurationSpec"),
            ("status", "v1beta1.PriorityLevelConfigurationStatus"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationCondition",
        &[
            ("type", "v1beta1.PriorityLevelConfigurationConditionType"),
            ("status", "v1beta1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.PriorityLevelConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationReference",
        &[("name", "string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationSpec",
        &[
            ("type", "v1beta1.PriorityLevelEnablement"),
            ("limited", "v1beta1.LimitedPriorityLevelConfiguration"),
            ("exempt", "v1beta1.ExemptPriorityLevelConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationStatus",
        &[("conditions", "[]v1beta1.PriorityLevelConfigurationCondition")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.QueuingConfiguration",
        &[
            ("queues", "int32"),
            ("handSize", "int32"),
            ("queueLengthLimit", "int32"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.ResourcePolicyRule",
        &[
            ("verbs", "[]string"),
            ("apiGroups", "[]string"),
            ("resources", "[]string"),
            ("clusterScope", "bool"),
            ("namespaces", "[]string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.ServiceAccountSubject",
        &[("namespace", "string"), ("name", "string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta1.Subject",
        &[
            ("kind", "v1beta1.SubjectKind"),
            ("user", "v1beta1.UserSubject"),
            ("group", "v1beta1.GroupSubject"),
            ("serviceAccount", "v1beta1.ServiceAccountSubject"),
        ],
    ),
    ("k8s.io.api.flowcontrol.v1beta1.UserSubject", &[("name", "string")]),
    (
        "k8s.io.api.flowcontrol.v1beta2.ExemptPriorityLevelConfiguration",
        &[("nominalConcurrencyShares", "int32"), ("lendablePercent", "int32")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowDistinguisherMethod",
        &[("type", "v1beta2.FlowDistinguisherMethodType")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowSchema",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta2.FlowSchemaSpec"),
            ("status", "v1beta2.FlowSchemaStatus"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowSchemaCondition",
        &[
            ("type", "v1beta2.FlowSchemaConditionType"),
            ("status", "v1beta2.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowSchemaList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta2.FlowSchema")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowSchemaSpec",
        &[
            (
                "priorityLevelConfiguration",
                "v1beta2.PriorityLevelConfigurationReference",
            ),
            ("matchingPrecedence", "int32"),
            ("distinguisherMethod", "v1beta2.FlowDistinguisherMethod"),
            ("rules", "[]v1beta2.PolicyRulesWithSubjects"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.FlowSchemaStatus",
        &[("conditions", "[]v1beta2.FlowSchemaCondition")],
    ),
    ("k8s.io.api.flowcontrol.v1beta2.GroupSubject", &[("name", "string")]),
    (
        "k8s.io.api.flowcontrol.v1beta2.LimitResponse",
        &[
            ("type", "v1beta2.LimitResponseType"),
            ("queuing", "v1beta2.QueuingConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.LimitedPriorityLevelConfiguration",
        &[
            ("assuredConcurrencyShares", "int32"),
            ("limitResponse", "v1beta2.LimitResponse"),
            ("lendablePercent", "int32"),
            ("borrowingLimitPercent", "int32"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.NonResourcePolicyRule",
        &[("verbs", "[]string"), ("nonResourceURLs", "[]string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PolicyRulesWithSubjects",
        &[
            ("subjects", "[]v1beta2.Subject"),
            ("resourceRules", "[]v1beta2.ResourcePolicyRule"),
            ("nonResourceRules", "[]v1beta2.NonResourcePolicyRule"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfiguration",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta2.PriorityLevelConfigurationSpec"),
            ("status", "v1beta2.PriorityLevelConfigurationStatus"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationCondition",
        &[
            ("type", "v1beta2.PriorityLevelConfigurationConditionType"),
            ("status", "v1beta2.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta2.PriorityLevelConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationReference",
        &[("name", "string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationSpec",
        &[
            ("type", "v1beta2.PriorityLevelEnablement"),
            ("limited", "v1beta2.LimitedPriorityLevelConfiguration"),
            ("exempt", "v1beta2.ExemptPriorityLevelConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationStatus",
        &[("conditions", "[]v1beta2.PriorityLevelConfigurationCondition")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.QueuingConfiguration",
        &[
            ("queues", "int32"),
            ("handSize", "int32"),
            ("queueLengthLimit", "int32"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.ResourcePolicyRule",
        &[
            ("verbs", "[]string"),
            ("apiGroups", "[]string"),
            ("resources", "[]string"),
            ("clusterScope", "bool"),
            ("namespaces", "[]string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.ServiceAccountSubject",
        &[("namespace", "string"), ("name", "string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta2.Subject",
        &[
            ("kind", "v1beta2.SubjectKind"),
            ("user", "v1beta2.UserSubject"),
            ("group", "v1beta2.GroupSubject"),
            ("serviceAccount", "v1beta2.ServiceAccountSubject"),
        ],
    ),
    ("k8s.io.api.flowcontrol.v1beta2.UserSubject", &[("name", "string")]),
    (
        "k8s.io.api.flowcontrol.v1beta3.ExemptPriorityLevelConfiguration",
        &[("nominalConcurrencyShares", "int32"), ("lendablePercent", "int32")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowDistinguisherMethod",
        &[("type", "v1beta3.FlowDistinguisherMethodType")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowSchema",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta3.FlowSchemaSpec"),
            ("status", "v1beta3.FlowSchemaStatus"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowSchemaCondition",
        &[
            ("type", "v1beta3.FlowSchemaConditionType"),
            ("status", "v1beta3.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowSchemaList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta3.FlowSchema")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowSchemaSpec",
        &[
            (
                "priorityLevelConfiguration",
                "v1beta3.PriorityLevelConfigurationReference",
            ),
            ("matchingPrecedence", "int32"),
            ("distinguisherMethod", "v1beta3.FlowDistinguisherMethod"),
            ("rules", "[]v1beta3.PolicyRulesWithSubjects"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.FlowSchemaStatus",
        &[("conditions", "[]v1beta3.FlowSchemaCondition")],
    ),
    ("k8s.io.api.flowcontrol.v1beta3.GroupSubject", &[("name", "string")]),
    (
        "k8s.io.api.flowcontrol.v1beta3.LimitResponse",
        &[
            ("type", "v1beta3.LimitResponseType"),
            ("queuing", "v1beta3.QueuingConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.LimitedPriorityLevelConfiguration",
        &[
            ("nominalConcurrencyShares", "int32"),
            ("limitResponse", "v1beta3.LimitResponse"),
            ("lendablePercent", "int32"),
            ("borrowingLimitPercent", "int32"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.NonResourcePolicyRule",
        &[("verbs", "[]string"), ("nonResourceURLs", "[]string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PolicyRulesWithSubjects",
        &[
            ("subjects", "[]v1beta3.Subject"),
            ("resourceRules", "[]v1beta3.ResourcePolicyRule"),
            ("nonResourceRules", "[]v1beta3.NonResourcePolicyRule"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfiguration",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta3.PriorityLevelConfigurationSpec"),
            ("status", "v1beta3.PriorityLevelConfigurationStatus"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationCondition",
        &[
            ("type", "v1beta3.PriorityLevelConfigurationConditionType"),
            ("status", "v1beta3.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta3.PriorityLevelConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationReference",
        &[("name", "string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationSpec",
        &[
            ("type", "v1beta3.PriorityLevelEnablement"),
            ("limited", "v1beta3.LimitedPriorityLevelConfiguration"),
            ("exempt", "v1beta3.ExemptPriorityLevelConfiguration"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationStatus",
        &[("conditions", "[]v1beta3.PriorityLevelConfigurationCondition")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.QueuingConfiguration",
        &[
            ("queues", "int32"),
            ("handSize", "int32"),
            ("queueLengthLimit", "int32"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.ResourcePolicyRule",
        &[
            ("verbs", "[]string"),
            ("apiGroups", "[]string"),
            ("resources", "[]string"),
            ("clusterScope", "bool"),
            ("namespaces", "[]string"),
        ],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.ServiceAccountSubject",
        &[("namespace", "string"), ("name", "string")],
    ),
    (
        "k8s.io.api.flowcontrol.v1beta3.Subject",
        &[
            ("kind", "v1beta3.SubjectKind"),
            ("user", "v1beta3.UserSubject"),
            ("group", "v1beta3.GroupSubject"),
            ("serviceAccount", "v1beta3.ServiceAccountSubject"),
        ],
    ),
    ("k8s.io.api.flowcontrol.v1beta3.UserSubject", &[("name", "string")]),
    (
        "k8s.io.api.imagepolicy.v1alpha1.ImageReview",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha1.ImageReviewSpec"),
            ("status", "v1alpha1.ImageReviewStatus"),
        ],
    ),
    (
        "k8s.io.api.imagepolicy.v1alpha1.ImageReviewContainerSpec",
        &[("image", "string")],
    ),
    (
        "k8s.io.api.imagepolicy.v1alpha1.ImageReviewSpec",
        &[
            ("containers", "[]v1alpha1.ImageReviewContainerSpec"),
            ("annotations", "map[string]string"),
            ("namespace", "string"),
        ],
    ),
    (
        "k8s.io.api.imagepolicy.v1alpha1.ImageReviewStatus",
        &[
            ("allowed", "bool"),
            ("reason", "string"),
            ("auditAnnotations", "map[string]string"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.HTTPIngressPath",
        &[
            ("path", "string"),
            ("pathType", "v1.PathType"),
            ("backend", "v1.IngressBackend"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.HTTPIngressRuleValue",
        &[("paths", "[]v1.HTTPIngressPath")],
    ),
    (
        "k8s.io.api.networking.v1.IPAddress",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.IPAddressSpec")],
    ),
    (
        "k8s.io.api.networking.v1.IPAddressList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.IPAddress")],
    ),
    (
        "k8s.io.api.networking.v1.IPAddressSpec",
        &[("parentRef", "v1.ParentReference")],
    ),
    (
        "k8s.io.api.networking.v1.IPBlock",
        &[("cidr", "string"), ("except", "[]string")],
    ),
    (
        "k8s.io.api.networking.v1.Ingress",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.IngressSpec"),
            ("status", "v1.IngressStatus"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.IngressBackend",
        &[
            ("service", "v1.IngressServiceBackend"),
            ("resource", "v1.TypedLocalObjectReference"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.IngressClass",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.IngressClassSpec")],
    ),
    (
        "k8s.io.api.networking.v1.IngressClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.IngressClass")],
    ),
    (
        "k8s.io.api.networking.v1.IngressClassParametersReference",
        &[
            ("apiGroup", "string"),
            ("kind", "string"),
            ("name", "string"),
            ("scope", "string"),
            ("namespace", "string"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.IngressClassSpec",
        &[
            ("controller", "string"),
            ("parameters", "v1.IngressClassParametersReference"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.IngressList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Ingress")],
    ),
    (
        "k8s.io.api.networking.v1.IngressLoadBalancerIngress",
        &[
            ("ip", "string"),
            ("hostname", "string"),
            ("ports", "[]v1.IngressPortStatus"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.IngressLoadBalancerStatus",
        &[("ingress", "[]v1.IngressLoadBalancerIngress")],
    ),
    (
        "k8s.io.api.networking.v1.IngressPortStatus",
        &[("port", "int32"), ("protocol", "v1.Protocol"), ("error", "string")],
    ),
    (
        "k8s.io.api.networking.v1.IngressRule",
        &[("host", "string"), ("http", "v1.HTTPIngressRuleValue")],
    ),
    (
        "k8s.io.api.networking.v1.IngressRuleValue",
        &[("http", "v1.HTTPIngressRuleValue")],
    ),
    (
        "k8s.io.api.networking.v1.IngressServiceBackend",
        &[("name", "string"), ("port", "v1.ServiceBackendPort")],
    ),
    (
        "k8s.io.api.networking.v1.IngressSpec",
        &[
            ("ingressClassName", "string"),
            ("defaultBackend", "v1.IngressBackend"),
            ("tls", "[]v1.IngressTLS"),
            ("rules", "[]v1.IngressRule"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.IngressStatus",
        &[("loadBalancer", "v1.IngressLoadBalancerStatus")],
    ),
    (
        "k8s.io.api.networking.v1.IngressTLS",
        &[("hosts", "[]string"), ("secretName", "string")],
    ),
    (
        "k8s.io.api.networking.v1.NetworkPolicy",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.NetworkPolicySpec")],
    ),
    (
        "k8s.io.api.networking.v1.NetworkPolicyEgressRule",
        &[("ports", "[]v1.NetworkPolicyPort"), ("to", "[]v1.NetworkPolicyPeer")],
    ),
    (
        "k8s.io.api.networking.v1.NetworkPolicyIngressRule",
        &[("ports", "[]v1.NetworkPolicyPort"), ("from", "[]v1.NetworkPolicyPeer")],
    ),
    (
        "k8s.io.api.networking.v1.NetworkPolicyList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.NetworkPolicy")],
    ),
    (
        "k8s.io.api.networking.v1.NetworkPolicyPeer",
        &[
            ("podSelector", "v1.LabelSelector"),
            ("namespaceSelector", "v1.LabelSelector"),
            ("ipBlock", "v1.IPBlock"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.NetworkPolicyPort",
        &[
            ("protocol", "v1.Protocol"),
            ("port", "intstr.IntOrString"),
            ("endPort", "int32"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.NetworkPolicySpec",
        &[
            ("podSelector", "v1.LabelSelector"),
            ("ingress", "[]v1.NetworkPolicyIngressRule"),
            ("egress", "[]v1.NetworkPolicyEgressRule"),
            ("policyTypes", "[]v1.PolicyType"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.ParentReference",
        &[
            ("group", "string"),
            ("resource", "string"),
            ("namespace", "string"),
            ("name", "string"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.ServiceBackendPort",
        &[("name", "string"), ("number", "int32")],
    ),
    (
        "k8s.io.api.networking.v1.ServiceCIDR",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.ServiceCIDRSpec"),
            ("status", "v1.ServiceCIDRStatus"),
        ],
    ),
    (
        "k8s.io.api.networking.v1.ServiceCIDRList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ServiceCIDR")],
    ),
    ("k8s.io.api.networking.v1.ServiceCIDRSpec", &[("cidrs", "[]string")]),
    (
        "k8s.io.api.networking.v1.ServiceCIDRStatus",
        &[("conditions", "[]v1.Condition")],
    ),
    (
        "k8s.io.api.networking.v1beta1.HTTPIngressPath",
        &[
            ("path", "string"),
            ("pathType", "v1beta1.PathType"),
            ("backend", "v1beta1.IngressBackend"),
        ],
    ),
    (
        "k8s.io.api.networking.v1beta1.HTTPIngressRuleValue",
        &[("paths", "[]v1beta1.HTTPIngressPath")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IPAddress",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta1.IPAddressSpec")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IPAddressList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.IPAddress")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IPAddressSpec",
        &[("parentRef", "v1beta1.ParentReference")],
    ),
    (
        "k8s.io.api.networking.v1beta1.Ingress",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.IngressSpec"),
            ("status", "v1beta1.IngressStatus"),
        ],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressBackend",
        &[
            ("serviceName", "string"),
            ("servicePort", "intstr.IntOrString"),
            ("resource", "v1.TypedLocalObjectReference"),
        ],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressClass",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta1.IngressClassSpec")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.IngressClass")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressClassParametersReference",
        &[
            ("apiGroup", "string"),
            ("kind", "string"),
            ("name", "string"),
            ("scope", "string"),
            ("namespace", "string"),
        ],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressClassSpec",
        &[
            ("controller", "string"),
            ("parameters", "v1beta1.IngressClassParametersReference"),
        ],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.Ingress")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressLoadBalancerIngress",
        &[
            ("ip", "string"),
            ("hostname", "string"),
            ("ports", "[]v1beta1.IngressPortStatus"),
        ],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressLoadBalancerStatus",
        &[("ingress", "[]v1beta1.IngressLoadBalancerIngress")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressPortStatus",
        &[("port", "int32"), ("protocol", "v1.Protocol"), ("error", "string")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressRule",
        &[("host", "string"), ("http", "v1beta1.HTTPIngressRuleValue")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressRuleValue",
        &[("http", "v1beta1.HTTPIngressRuleValue")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressSpec",
        &[
            ("ingressClassName", "string"),
            ("backend", "v1beta1.IngressBackend"),
            ("tls", "[]v1beta1.IngressTLS"),
            ("rules", "[]v1beta1.IngressRule"),
        ],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressStatus",
        &[("loadBalancer", "v1beta1.IngressLoadBalancerStatus")],
    ),
    (
        "k8s.io.api.networking.v1beta1.IngressTLS",
        &[("hosts", "[]string"), ("secretName", "string")],
    ),
    (
        "k8s.io.api.networking.v1beta1.ParentReference",
        &[
            ("group", "string"),
            ("resource", "string"),
            ("namespace", "string"),
            ("name", "string"),
        ],
    ),
    (
        "k8s.io.api.networking.v1beta1.ServiceCIDR",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.ServiceCIDRSpec"),
            ("status", "v1beta1.ServiceCIDRStatus"),
        ],
    ),
    (
        "k8s.io.api.networking.v1beta1.ServiceCIDRList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.ServiceCIDR")],
    ),
    (
        "k8s.io.api.networking.v1beta1.ServiceCIDRSpec",
        &[("cidrs", "[]string")],
    ),
    (
        "k8s.io.api.networking.v1beta1.ServiceCIDRStatus",
        &[("conditions", "[]v1.Condition")],
    ),
    ("k8s.io.api.node.v1.Overhead", &[("podFixed", "v1.ResourceList")]),
    (
        "k8s.io.api.node.v1.RuntimeClass",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("handler", "string"),
            ("overhead", "v1.Overhead"),
            ("scheduling", "v1.Scheduling"),
        ],
    ),
    (
        "k8s.io.api.node.v1.RuntimeClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.RuntimeClass")],
    ),
    (
        "k8s.io.api.node.v1.Scheduling",
        &[
            ("nodeSelector", "map[string]string"),
            ("tolerations", "[]v1.Toleration"),
        ],
    ),
    ("k8s.io.api.node.v1alpha1.Overhead", &[("podFixed", "v1.ResourceList")]),
    (
        "k8s.io.api.node.v1alpha1.RuntimeClass",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1alpha1.RuntimeClassSpec")],
    ),
    (
        "k8s.io.api.node.v1alpha1.RuntimeClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha1.RuntimeClass")],
    ),
    (
        "k8s.io.api.node.v1alpha1.RuntimeClassSpec",
        &[
            ("runtimeHandler", "string"),
            ("overhead", "v1alpha1.Overhead"),
            ("scheduling", "v1alpha1.Scheduling"),
        ],
    ),
    (
        "k8s.io.api.node.v1alpha1.Scheduling",
        &[
            ("nodeSelector", "map[string]string"),
            ("tolerations", "[]v1.Toleration"),
        ],
    ),
    ("k8s.io.api.node.v1beta1.Overhead", &[("podFixed", "v1.ResourceList")]),
    (
        "k8s.io.api.node.v1beta1.RuntimeClass",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("handler", "string"),
            ("overhead", "v1beta1.Overhead"),
            ("scheduling", "v1beta1.Scheduling"),
        ],
    ),
    (
        "k8s.io.api.node.v1beta1.RuntimeClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.RuntimeClass")],
    ),
    (
        "k8s.io.api.node.v1beta1.Scheduling",
        &[
            ("nodeSelector", "map[string]string"),
            ("tolerations", "[]v1.Toleration"),
        ],
    ),
    (
        "k8s.io.api.policy.v1.Eviction",
        &[("metadata", "v1.ObjectMeta"), ("deleteOptions", "v1.DeleteOptions")],
    ),
    (
        "k8s.io.api.policy.v1.PodDisruptionBudget",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.PodDisruptionBudgetSpec"),
            ("status", "v1.PodDisruptionBudgetStatus"),
        ],
    ),
    (
        "k8s.io.api.policy.v1.PodDisruptionBudgetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.PodDisruptionBudget")],
    ),
    (
        "k8s.io.api.policy.v1.PodDisruptionBudgetSpec",
        &[
            ("minAvailable", "intstr.IntOrString"),
            ("selector", "v1.LabelSelector"),
            ("maxUnavailable", "intstr.IntOrString"),
            ("unhealthyPodEvictionPolicy", "v1.UnhealthyPodEvictionPolicyType"),
        ],
    ),
    (
        "k8s.io.api.policy.v1.PodDisruptionBudgetStatus",
        &[
            ("observedGeneration", "int64"),
            ("disruptedPods", "map[string]v1.Time"),
            ("disruptionsAllowed", "int32"),
            ("currentHealthy", "int32"),
            ("desiredHealthy", "int32"),
            ("expectedPods", "int32"),
            ("conditions", "[]v1.Condition"),
        ],
    ),
    (
        "k8s.io.api.policy.v1beta1.Eviction",
        &[("metadata", "v1.ObjectMeta"), ("deleteOptions", "v1.DeleteOptions")],
    ),
    (
        "k8s.io.api.policy.v1beta1.PodDisruptionBudget",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.PodDisruptionBudgetSpec"),
            ("status", "v1beta1.PodDisruptionBudgetStatus"),
        ],
    ),
    (
        "k8s.io.api.policy.v1beta1.PodDisruptionBudgetList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.PodDisruptionBudget")],
    ),
    (
        "k8s.io.api.policy.v1beta1.PodDisruptionBudgetSpec",
        &[
            ("minAvailable", "intstr.IntOrString"),
            ("selector", "v1.LabelSelector"),
            ("maxUnavailable", "intstr.IntOrString"),
            ("unhealthyPodEvictionPolicy", "v1beta1.UnhealthyPodEvictionPolicyType"),
        ],
    ),
    (
        "k8s.io.api.policy.v1beta1.PodDisruptionBudgetStatus",
        &[
            ("observedGeneration", "int64"),
            ("disruptedPods", "map[string]v1.Time"),
            ("disruptionsAllowed", "int32"),
            ("currentHealthy", "int32"),
            ("desiredHealthy", "int32"),
            ("expectedPods", "int32"),
            ("conditions", "[]v1.Condition"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1.AggregationRule",
        &[("clusterRoleSelectors", "[]v1.LabelSelector")],
    ),
    (
        "k8s.io.api.rbac.v1.ClusterRole",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("rules", "[]v1.PolicyRule"),
            ("aggregationRule", "v1.AggregationRule"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1.ClusterRoleBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("subjects", "[]v1.Subject"),
            ("roleRef", "v1.RoleRef"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1.ClusterRoleBindingList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ClusterRoleBinding")],
    ),
    (
        "k8s.io.api.rbac.v1.ClusterRoleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ClusterRole")],
    ),
    (
        "k8s.io.api.rbac.v1.PolicyRule",
        &[
            ("verbs", "[]string"),
            ("apiGroups", "[]string"),
            ("resources", "[]string"),
            ("resourceNames", "[]string"),
            ("nonResourceURLs", "[]string"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1.Role",
        &[("metadata", "v1.ObjectMeta"), ("rules", "[]v1.PolicyRule")],
    ),
    (
        "k8s.io.api.rbac.v1.RoleBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("subjects", "[]v1.Subject"),
            ("roleRef", "v1.RoleRef"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1.RoleBindingList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.RoleBinding")],
    ),
    (
        "k8s.io.api.rbac.v1.RoleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.Role")],
    ),
    (
        "k8s.io.api.rbac.v1.RoleRef",
        &[("apiGroup", "string"), ("kind", "string"), ("name", "string")],
    ),
    (
        "k8s.io.api.rbac.v1.Subject",
        &[
            ("kind", "string"),
            ("apiGroup", "string"),
            ("name", "string"),
            ("namespace", "string"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.AggregationRule",
        &[("clusterRoleSelectors", "[]v1.LabelSelector")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.ClusterRole",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("rules", "[]v1alpha1.PolicyRule"),
            ("aggregationRule", "v1alpha1.AggregationRule"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.ClusterRoleBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("subjects", "[]v1alpha1.Subject"),
            ("roleRef", "v1alpha1.RoleRef"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.ClusterRoleBindingList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha1.ClusterRoleBinding")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.ClusterRoleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha1.ClusterRole")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.PolicyRule",
        &[
            ("verbs", "[]string"),
            ("apiGroups", "[]string"),
            ("resources", "[]string"),
            ("resourceNames", "[]string"),
            ("nonResourceURLs", "[]string"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.Role",
        &[("metadata", "v1.ObjectMeta"), ("rules", "[]v1alpha1.PolicyRule")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.RoleBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("subjects", "[]v1alpha1.Subject"),
            ("roleRef", "v1alpha1.RoleRef"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.RoleBindingList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha1.RoleBinding")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.RoleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha1.Role")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.RoleRef",
        &[("apiGroup", "string"), ("kind", "string"), ("name", "string")],
    ),
    (
        "k8s.io.api.rbac.v1alpha1.Subject",
        &[
            ("kind", "string"),
            ("apiVersion", "string"),
            ("name", "string"),
            ("namespace", "string"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1beta1.AggregationRule",
        &[("clusterRoleSelectors", "[]v1.LabelSelector")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.ClusterRole",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("rules", "[]v1beta1.PolicyRule"),
            ("aggregationRule", "v1beta1.AggregationRule"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1beta1.ClusterRoleBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("subjects", "[]v1beta1.Subject"),
            ("roleRef", "v1beta1.RoleRef"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1beta1.ClusterRoleBindingList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.ClusterRoleBinding")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.ClusterRoleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.ClusterRole")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.PolicyRule",
        &[
            ("verbs", "[]string"),
            ("apiGroups", "[]string"),
            ("resources", "[]string"),
            ("resourceNames", "[]string"),
            ("nonResourceURLs", "[]string"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1beta1.Role",
        &[("metadata", "v1.ObjectMeta"), ("rules", "[]v1beta1.PolicyRule")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.RoleBinding",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("subjects", "[]v1beta1.Subject"),
            ("roleRef", "v1beta1.RoleRef"),
        ],
    ),
    (
        "k8s.io.api.rbac.v1beta1.RoleBindingList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.RoleBinding")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.RoleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.Role")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.RoleRef",
        &[("apiGroup", "string"), ("kind", "string"), ("name", "string")],
    ),
    (
        "k8s.io.api.rbac.v1beta1.Subject",
        &[
            ("kind", "string"),
            ("apiGroup", "string"),
            ("name", "string"),
            ("namespace", "string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.AllocatedDeviceStatus",
        &[
            ("driver", "string"),
            ("pool", "string"),
            ("device", "string"),
            ("shareID", "string"),
            ("conditions", "[]v1.Condition"),
            ("data", "runtime.RawExtension"),
            ("networkData", "v1.NetworkDeviceData"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.AllocationResult",
        &[
            ("devices", "v1.DeviceAllocationResult"),
            ("nodeSelector", "v1.NodeSelector"),
            ("allocationTimestamp", "v1.Time"),
        ],
    ),
    ("k8s.io.api.resource.v1.CELDeviceSelector", &[("expression", "string")]),
    (
        "k8s.io.api.resource.v1.CapacityRequestPolicy",
        &[
            ("default", "resource.Quantity"),
            ("validValues", "[]resource.Quantity"),
            ("validRange", "v1.CapacityRequestPolicyRange"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.CapacityRequestPolicyRange",
        &[
            ("min", "resource.Quantity"),
            ("max", "resource.Quantity"),
            ("step", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.CapacityRequirements",
        &[("requests", "map[v1.QualifiedName]resource.Quantity")],
    ),
    ("k8s.io.api.resource.v1.Counter", &[("value", "resource.Quantity")]),
    (
        "k8s.io.api.resource.v1.CounterSet",
        &[("name", "string"), ("counters", "map[string]v1.Counter")],
    ),
    (
        "k8s.io.api.resource.v1.Device",
        &[
            ("name", "string"),
            ("attributes", "map[v1.QualifiedName]v1.DeviceAttribute"),
            ("capacity", "map[v1.QualifiedName]v1.DeviceCapacity"),
            ("consumesCounters", "[]v1.DeviceCounterConsumption"),
            ("nodeName", "string"),
            ("nodeSelector", "v1.NodeSelector"),
            ("allNodes", "bool"),
            ("taints", "[]v1.DeviceTaint"),
            ("bindsToNode", "bool"),
            ("bindingConditions", "[]string"),
            ("bindingFailureConditions", "[]string"),
            ("allowMultipleAllocations", "bool"),
            (
                "nodeAllocatableResourceMappings",
                "map[v1.ResourceName]v1.NodeAllocatableResourceMapping",
            ),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceAllocationConfiguration",
        &[
            ("source", "v1.AllocationConfigSource"),
            ("requests", "[]string"),
            ("opaque", "v1.OpaqueDeviceConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceAllocationResult",
        &[
            ("results", "[]v1.DeviceRequestAllocationResult"),
            ("config", "[]v1.DeviceAllocationConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceAttribute",
        &[
            ("int", "int64"),
            ("bool", "bool"),
            ("string", "string"),
            ("version", "string"),
            ("ints", "[]int64"),
            ("bools", "[]bool"),
            ("strings", "[]string"),
            ("versions", "[]string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceCapacity",
        &[
            ("value", "resource.Quantity"),
            ("requestPolicy", "v1.CapacityRequestPolicy"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceClaim",
        &[
            ("requests", "[]v1.DeviceRequest"),
            ("constraints", "[]v1.DeviceConstraint"),
            ("config", "[]v1.DeviceClaimConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceClaimConfiguration",
        &[("requests", "[]string"), ("opaque", "v1.OpaqueDeviceConfiguration")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceClass",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.DeviceClassSpec")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceClassConfiguration",
        &[("opaque", "v1.OpaqueDeviceConfiguration")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.DeviceClass")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceClassSpec",
        &[
            ("selectors", "[]v1.DeviceSelector"),
            ("config", "[]v1.DeviceClassConfiguration"),
            ("extendedResourceName", "string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceConfiguration",
        &[("opaque", "v1.OpaqueDeviceConfiguration")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceConstraint",
        &[
            ("requests", "[]string"),
            ("matchAttribute", "v1.FullyQualifiedName"),
            ("distinctAttribute", "v1.FullyQualifiedName"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceCounterConsumption",
        &[("counterSet", "string"), ("counters", "map[string]v1.Counter")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceRequest",
        &[
            ("name", "string"),
            ("exactly", "v1.ExactDeviceRequest"),
            ("firstAvailable", "[]v1.DeviceSubRequest"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceRequestAllocationResult",
        &[
            ("request", "string"),
            ("driver", "string"),
            ("pool", "string"),
            ("device", "string"),
            ("adminAccess", "bool"),
            ("tolerations", "[]v1.DeviceToleration"),
            ("bindingConditions", "[]string"),
            ("bindingFailureConditions", "[]string"),
            ("shareID", "types.UID"),
            ("consumedCapacity", "map[v1.QualifiedName]resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceSelector",
        &[("cel", "v1.CELDeviceSelector")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceSubRequest",
        &[
            ("name", "string"),
            ("deviceClassName", "string"),
            ("selectors", "[]v1.DeviceSelector"),
            ("allocationMode", "v1.DeviceAllocationMode"),
            ("count", "int64"),
            ("tolerations", "[]v1.DeviceToleration"),
            ("capacity", "v1.CapacityRequirements"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceTaint",
        &[
            ("key", "string"),
            ("value", "string"),
            ("effect", "v1.DeviceTaintEffect"),
            ("timeAdded", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceTaintRule",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.DeviceTaintRuleSpec"),
            ("status", "v1.DeviceTaintRuleStatus"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceTaintRuleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.DeviceTaintRule")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceTaintRuleSpec",
        &[
            ("deviceSelector", "v1.DeviceTaintSelector"),
            ("taint", "v1.DeviceTaint"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.DeviceTaintRuleStatus",
        &[("conditions", "[]v1.Condition")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceTaintSelector",
        &[("driver", "string"), ("pool", "string"), ("device", "string")],
    ),
    (
        "k8s.io.api.resource.v1.DeviceToleration",
        &[
            ("key", "string"),
            ("operator", "v1.DeviceTolerationOperator"),
            ("value", "string"),
            ("effect", "v1.DeviceTaintEffect"),
            ("tolerationSeconds", "int64"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.ExactDeviceRequest",
        &[
            ("deviceClassName", "string"),
            ("selectors", "[]v1.DeviceSelector"),
            ("allocationMode", "v1.DeviceAllocationMode"),
            ("count", "int64"),
            ("adminAccess", "bool"),
            ("tolerations", "[]v1.DeviceToleration"),
            ("capacity", "v1.CapacityRequirements"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.NetworkDeviceData",
        &[
            ("interfaceName", "string"),
            ("ips", "[]string"),
            ("hardwareAddress", "string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.NodeAllocatableResourceMapping",
        &[
            ("capacityKey", "v1.QualifiedName"),
            ("allocationMultiplier", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.OpaqueDeviceConfiguration",
        &[("driver", "string"), ("parameters", "runtime.RawExtension")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaim",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.ResourceClaimSpec"),
            ("status", "v1.ResourceClaimStatus"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimConsumerReference",
        &[
            ("apiGroup", "string"),
            ("resource", "string"),
            ("name", "string"),
            ("uid", "types.UID"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ResourceClaim")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimSpec",
        &[("devices", "v1.DeviceClaim")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimStatus",
        &[
            ("allocation", "v1.AllocationResult"),
            ("reservedFor", "[]v1.ResourceClaimConsumerReference"),
            ("devices", "[]v1.AllocatedDeviceStatus"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimTemplate",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.ResourceClaimTemplateSpec")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimTemplateList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ResourceClaimTemplate")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceClaimTemplateSpec",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.ResourceClaimSpec")],
    ),
    (
        "k8s.io.api.resource.v1.ResourcePool",
        &[
            ("name", "string"),
            ("generation", "int64"),
            ("resourceSliceCount", "int64"),
        ],
    ),
    (
        "k8s.io.api.resource.v1.ResourceSlice",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.ResourceSliceSpec")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceSliceList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.ResourceSlice")],
    ),
    (
        "k8s.io.api.resource.v1.ResourceSliceSpec",
        &[
            ("driver", "string"),
            ("pool", "v1.ResourcePool"),
            ("nodeName", "string"),
            ("nodeSelector", "v1.NodeSelector"),
            ("allNodes", "bool"),
            ("devices", "[]v1.Device"),
            ("perDeviceNodeSelection", "bool"),
            ("sharedCounters", "[]v1.CounterSet"),
        ],
    ),
    (
        "k8s.io.api.resource.v1alpha3.CELDeviceSelector",
        &[("expression", "string")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.DeviceSelector",
        &[("cel", "v1alpha3.CELDeviceSelector")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.DeviceTaint",
        &[
            ("key", "string"),
            ("value", "string"),
            ("effect", "v1alpha3.DeviceTaintEffect"),
            ("timeAdded", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.resource.v1alpha3.DeviceTaintRule",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha3.DeviceTaintRuleSpec"),
            ("status", "v1alpha3.DeviceTaintRuleStatus"),
        ],
    ),
    (
        "k8s.io.api.resource.v1alpha3.DeviceTaintRuleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha3.DeviceTaintRule")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.DeviceTaintRuleSpec",
        &[
            ("deviceSelector", "v1alpha3.DeviceTaintSelector"),
            ("taint", "v1alpha3.DeviceTaint"),
        ],
    ),
    (
        "k8s.io.api.resource.v1alpha3.DeviceTaintRuleStatus",
        &[("conditions", "[]v1.Condition")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.DeviceTaintSelector",
        &[("driver", "string"), ("pool", "string"), ("device", "string")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.PoolStatus",
        &[
            ("driver", "string"),
            ("poolName", "string"),
            ("generation", "int64"),
            ("resourceSliceCount", "int32"),
            ("totalDevices", "int32"),
            ("allocatedDevices", "int32"),
            ("availableDevices", "int32"),
            ("unavailableDevices", "int32"),
            ("nodeName", "string"),
            ("validationError", "string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1alpha3.ResourcePoolStatusRequest",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha3.ResourcePoolStatusRequestSpec"),
            ("status", "v1alpha3.ResourcePoolStatusRequestStatus"),
        ],
    ),
    (
        "k8s.io.api.resource.v1alpha3.ResourcePoolStatusRequestList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1alpha3.ResourcePoolStatusRequest"),
        ],
    ),
    (
        "k8s.io.api.resource.v1alpha3.ResourcePoolStatusRequestSpec",
        &[("driver", "string"), ("poolName", "string"), ("limit", "int32")],
    ),
    (
        "k8s.io.api.resource.v1alpha3.ResourcePoolStatusRequestStatus",
        &[
            ("poolCount", "int32"),
            ("pools", "[]v1alpha3.PoolStatus"),
            ("conditions", "[]v1.Condition"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.AllocatedDeviceStatus",
        &[
            ("driver", "string"),
            ("pool", "string"),
            ("device", "string"),
            ("shareID", "string"),
            ("conditions", "[]v1.Condition"),
            ("data", "runtime.RawExtension"),
            ("networkData", "v1beta1.NetworkDeviceData"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.AllocationResult",
        &[
            ("devices", "v1beta1.DeviceAllocationResult"),
            ("nodeSelector", "v1.NodeSelector"),
            ("allocationTimestamp", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.BasicDevice",
        &[
            ("attributes", "map[v1beta1.QualifiedName]v1beta1.DeviceAttribute"),
            ("capacity", "map[v1beta1.QualifiedName]v1beta1.DeviceCapacity"),
            ("consumesCounters", "[]v1beta1.DeviceCounterConsumption"),
            ("nodeName", "string"),
            ("nodeSelector", "v1.NodeSelector"),
            ("allNodes", "bool"),
            ("taints", "[]v1beta1.DeviceTaint"),
            ("bindsToNode", "bool"),
            ("bindingConditions", "[]string"),
            ("bindingFailureConditions", "[]string"),
            ("allowMultipleAllocations", "bool"),
            (
                "nodeAllocatableResourceMappings",
                "map[v1.ResourceName]v1beta1.NodeAllocatableResourceMapping",
            ),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.CELDeviceSelector",
        &[("expression", "string")],
    ),
    (
        "k8s.io.api.resource.v1beta1.CapacityRequestPolicy",
        &[
            ("default", "resource.Quantity"),
            ("validValues", "[]resource.Quantity"),
            ("validRange", "v1beta1.CapacityRequestPolicyRange"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.CapacityRequestPolicyRange",
        &[
            ("min", "resource.Quantity"),
            ("max", "resource.Quantity"),
            ("step", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.CapacityRequirements",
        &[("requests", "map[v1beta1.QualifiedName]resource.Quantity")],
    ),
    ("k8s.io.api.resource.v1beta1.Counter", &[("value", "resource.Quantity")]),
    (
        "k8s.io.api.resource.v1beta1.CounterSet",
        &[("name", "string"), ("counters", "map[string]v1beta1.Counter")],
    ),
    (
        "k8s.io.api.resource.v1beta1.Device",
        &[("name", "string"), ("basic", "v1beta1.BasicDevice")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceAllocationConfiguration",
        &[
            ("source", "v1beta1.AllocationConfigSource"),
            ("requests", "[]string"),
            ("opaque", "v1beta1.OpaqueDeviceConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceAllocationResult",
        &[
            ("results", "[]v1beta1.DeviceRequestAllocationResult"),
            ("config", "[]v1beta1.DeviceAllocationConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceAttribute",
        &[
            ("int", "int64"),
            ("bool", "bool"),
            ("string", "string"),
            ("version", "string"),
            ("ints", "[]int64"),
            ("bools", "[]bool"),
            ("strings", "[]string"),
            ("versions", "[]string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceCapacity",
        &[
            ("value", "resource.Quantity"),
            ("requestPolicy", "v1beta1.CapacityRequestPolicy"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceClaim",
        &[
            ("requests", "[]v1beta1.DeviceRequest"),
            ("constraints", "[]v1beta1.DeviceConstraint"),
            ("config", "[]v1beta1.DeviceClaimConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceClaimConfiguration",
        &[
            ("requests", "[]string"),
            ("opaque", "v1beta1.OpaqueDeviceConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceClass",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta1.DeviceClassSpec")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceClassConfiguration",
        &[("opaque", "v1beta1.OpaqueDeviceConfiguration")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.DeviceClass")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceClassSpec",
        &[
            ("selectors", "[]v1beta1.DeviceSelector"),
            ("config", "[]v1beta1.DeviceClassConfiguration"),
            ("extendedResourceName", "string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceConfiguration",
        &[("opaque", "v1beta1.OpaqueDeviceConfiguration")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceConstraint",
        &[
            ("requests", "[]string"),
            ("matchAttribute", "v1beta1.FullyQualifiedName"),
            ("distinctAttribute", "v1beta1.FullyQualifiedName"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceCounterConsumption",
        &[("counterSet", "string"), ("counters", "map[string]v1beta1.Counter")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceRequest",
        &[
            ("name", "string"),
            ("deviceClassName", "string"),
            ("selectors", "[]v1beta1.DeviceSelector"),
            ("allocationMode", "v1beta1.DeviceAllocationMode"),
            ("count", "int64"),
            ("adminAccess", "bool"),
            ("firstAvailable", "[]v1beta1.DeviceSubRequest"),
            ("tolerations", "[]v1beta1.DeviceToleration"),
            ("capacity", "v1beta1.CapacityRequirements"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceRequestAllocationResult",
        &[
            ("request", "string"),
            ("driver", "string"),
            ("pool", "string"),
            ("device", "string"),
            ("adminAccess", "bool"),
            ("tolerations", "[]v1beta1.DeviceToleration"),
            ("bindingConditions", "[]string"),
            ("bindingFailureConditions", "[]string"),
            ("shareID", "types.UID"),
            ("consumedCapacity", "map[v1beta1.QualifiedName]resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceSelector",
        &[("cel", "v1beta1.CELDeviceSelector")],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceSubRequest",
        &[
            ("name", "string"),
            ("deviceClassName", "string"),
            ("selectors", "[]v1beta1.DeviceSelector"),
            ("allocationMode", "v1beta1.DeviceAllocationMode"),
            ("count", "int64"),
            ("tolerations", "[]v1beta1.DeviceToleration"),
            ("capacity", "v1beta1.CapacityRequirements"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceTaint",
        &[
            ("key", "string"),
            ("value", "string"),
            ("effect", "v1beta1.DeviceTaintEffect"),
            ("timeAdded", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.DeviceToleration",
        &[
            ("key", "string"),
            ("operator", "v1beta1.DeviceTolerationOperator"),
            ("value", "string"),
            ("effect", "v1beta1.DeviceTaintEffect"),
            ("tolerationSeconds", "int64"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.NetworkDeviceData",
        &[
            ("interfaceName", "string"),
            ("ips", "[]string"),
            ("hardwareAddress", "string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.NodeAllocatableResourceMapping",
        &[
            ("capacityKey", "v1beta1.QualifiedName"),
            ("allocationMultiplier", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.OpaqueDeviceConfiguration",
        &[("driver", "string"), ("parameters", "runtime.RawExtension")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaim",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.ResourceClaimSpec"),
            ("status", "v1beta1.ResourceClaimStatus"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimConsumerReference",
        &[
            ("apiGroup", "string"),
            ("resource", "string"),
            ("name", "string"),
            ("uid", "types.UID"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.ResourceClaim")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimSpec",
        &[("devices", "v1beta1.DeviceClaim")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimStatus",
        &[
            ("allocation", "v1beta1.AllocationResult"),
            ("reservedFor", "[]v1beta1.ResourceClaimConsumerReference"),
            ("devices", "[]v1beta1.AllocatedDeviceStatus"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimTemplate",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.ResourceClaimTemplateSpec"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimTemplateList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.ResourceClaimTemplate"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceClaimTemplateSpec",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta1.ResourceClaimSpec")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourcePool",
        &[
            ("name", "string"),
            ("generation", "int64"),
            ("resourceSliceCount", "int64"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceSlice",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta1.ResourceSliceSpec")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceSliceList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.ResourceSlice")],
    ),
    (
        "k8s.io.api.resource.v1beta1.ResourceSliceSpec",
        &[
            ("driver", "string"),
            ("pool", "v1beta1.ResourcePool"),
            ("nodeName", "string"),
            ("nodeSelector", "v1.NodeSelector"),
            ("allNodes", "bool"),
            ("devices", "[]v1beta1.Device"),
            ("perDeviceNodeSelection", "bool"),
            ("sharedCounters", "[]v1beta1.CounterSet"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.AllocatedDeviceStatus",
        &[
            ("driver", "string"),
            ("pool", "string"),
            ("device", "string"),
            ("shareID", "string"),
            ("conditions", "[]v1.Condition"),
            ("data", "runtime.RawExtension"),
            ("networkData", "v1beta2.NetworkDeviceData"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.AllocationResult",
        &[
            ("devices", "v1beta2.DeviceAllocationResult"),
            ("nodeSelector", "v1.NodeSelector"),
            ("allocationTimestamp", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.CELDeviceSelector",
        &[("expression", "string")],
    ),
    (
        "k8s.io.api.resource.v1beta2.CapacityRequestPolicy",
        &[
            ("default", "resource.Quantity"),
            ("validValues", "[]resource.Quantity"),
            ("validRange", "v1beta2.CapacityRequestPolicyRange"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.CapacityRequestPolicyRange",
        &[
            ("min", "resource.Quantity"),
            ("max", "resource.Quantity"),
            ("step", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.CapacityRequirements",
        &[("requests", "map[v1beta2.QualifiedName]resource.Quantity")],
    ),
    ("k8s.io.api.resource.v1beta2.Counter", &[("value", "resource.Quantity")]),
    (
        "k8s.io.api.resource.v1beta2.CounterSet",
        &[("name", "string"), ("counters", "map[string]v1beta2.Counter")],
    ),
    (
        "k8s.io.api.resource.v1beta2.Device",
        &[
            ("name", "string"),
            ("attributes", "map[v1beta2.QualifiedName]v1beta2.DeviceAttribute"),
            ("capacity", "map[v1beta2.QualifiedName]v1beta2.DeviceCapacity"),
            ("consumesCounters", "[]v1beta2.DeviceCounterConsumption"),
            ("nodeName", "string"),
            ("nodeSelector", "v1.NodeSelector"),
            ("allNodes", "bool"),
            ("taints", "[]v1beta2.DeviceTaint"),
            ("bindsToNode", "bool"),
            ("bindingConditions", "[]string"),
            ("bindingFailureConditions", "[]string"),
            ("allowMultipleAllocations", "bool"),
            (
                "nodeAllocatableResourceMappings",
                "map[v1.ResourceName]v1beta2.NodeAllocatableResourceMapping",
            ),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceAllocationConfiguration",
        &[
            ("source", "v1beta2.AllocationConfigSource"),
            ("requests", "[]string"),
            ("opaque", "v1beta2.OpaqueDeviceConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceAllocationResult",
        &[
            ("results", "[]v1beta2.DeviceRequestAllocationResult"),
            ("config", "[]v1beta2.DeviceAllocationConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceAttribute",
        &[
            ("int", "int64"),
            ("bool", "bool"),
            ("string", "string"),
            ("version", "string"),
            ("ints", "[]int64"),
            ("bools", "[]bool"),
            ("strings", "[]string"),
            ("versions", "[]string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceCapacity",
        &[
            ("value", "resource.Quantity"),
            ("requestPolicy", "v1beta2.CapacityRequestPolicy"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceClaim",
        &[
            ("requests", "[]v1beta2.DeviceRequest"),
            ("constraints", "[]v1beta2.DeviceConstraint"),
            ("config", "[]v1beta2.DeviceClaimConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceClaimConfiguration",
        &[
            ("requests", "[]string"),
            ("opaque", "v1beta2.OpaqueDeviceConfiguration"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceClass",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta2.DeviceClassSpec")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceClassConfiguration",
        &[("opaque", "v1beta2.OpaqueDeviceConfiguration")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta2.DeviceClass")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceClassSpec",
        &[
            ("selectors", "[]v1beta2.DeviceSelector"),
            ("config", "[]v1beta2.DeviceClassConfiguration"),
            ("extendedResourceName", "string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceConfiguration",
        &[("opaque", "v1beta2.OpaqueDeviceConfiguration")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceConstraint",
        &[
            ("requests", "[]string"),
            ("matchAttribute", "v1beta2.FullyQualifiedName"),
            ("distinctAttribute", "v1beta2.FullyQualifiedName"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceCounterConsumption",
        &[("counterSet", "string"), ("counters", "map[string]v1beta2.Counter")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceRequest",
        &[
            ("name", "string"),
            ("exactly", "v1beta2.ExactDeviceRequest"),
            ("firstAvailable", "[]v1beta2.DeviceSubRequest"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceRequestAllocationResult",
        &[
            ("request", "string"),
            ("driver", "string"),
            ("pool", "string"),
            ("device", "string"),
            ("adminAccess", "bool"),
            ("tolerations", "[]v1beta2.DeviceToleration"),
            ("bindingConditions", "[]string"),
            ("bindingFailureConditions", "[]string"),
            ("shareID", "types.UID"),
            ("consumedCapacity", "map[v1beta2.QualifiedName]resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceSelector",
        &[("cel", "v1beta2.CELDeviceSelector")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceSubRequest",
        &[
            ("name", "string"),
            ("deviceClassName", "string"),
            ("selectors", "[]v1beta2.DeviceSelector"),
            ("allocationMode", "v1beta2.DeviceAllocationMode"),
            ("count", "int64"),
            ("tolerations", "[]v1beta2.DeviceToleration"),
            ("capacity", "v1beta2.CapacityRequirements"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceTaint",
        &[
            ("key", "string"),
            ("value", "string"),
            ("effect", "v1beta2.DeviceTaintEffect"),
            ("timeAdded", "v1.Time"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceTaintRule",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta2.DeviceTaintRuleSpec"),
            ("status", "v1beta2.DeviceTaintRuleStatus"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceTaintRuleList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta2.DeviceTaintRule")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceTaintRuleSpec",
        &[
            ("deviceSelector", "v1beta2.DeviceTaintSelector"),
            ("taint", "v1beta2.DeviceTaint"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceTaintRuleStatus",
        &[("conditions", "[]v1.Condition")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceTaintSelector",
        &[("driver", "string"), ("pool", "string"), ("device", "string")],
    ),
    (
        "k8s.io.api.resource.v1beta2.DeviceToleration",
        &[
            ("key", "string"),
            ("operator", "v1beta2.DeviceTolerationOperator"),
            ("value", "string"),
            ("effect", "v1beta2.DeviceTaintEffect"),
            ("tolerationSeconds", "int64"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.ExactDeviceRequest",
        &[
            ("deviceClassName", "string"),
            ("selectors", "[]v1beta2.DeviceSelector"),
            ("allocationMode", "v1beta2.DeviceAllocationMode"),
            ("count", "int64"),
            ("adminAccess", "bool"),
            ("tolerations", "[]v1beta2.DeviceToleration"),
            ("capacity", "v1beta2.CapacityRequirements"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.NetworkDeviceData",
        &[
            ("interfaceName", "string"),
            ("ips", "[]string"),
            ("hardwareAddress", "string"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.NodeAllocatableResourceMapping",
        &[
            ("capacityKey", "v1beta2.QualifiedName"),
            ("allocationMultiplier", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.OpaqueDeviceConfiguration",
        &[("driver", "string"), ("parameters", "runtime.RawExtension")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaim",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta2.ResourceClaimSpec"),
            ("status", "v1beta2.ResourceClaimStatus"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimConsumerReference",
        &[
            ("apiGroup", "string"),
            ("resource", "string"),
            ("name", "string"),
            ("uid", "types.UID"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta2.ResourceClaim")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimSpec",
        &[("devices", "v1beta2.DeviceClaim")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimStatus",
        &[
            ("allocation", "v1beta2.AllocationResult"),
            ("reservedFor", "[]v1beta2.ResourceClaimConsumerReference"),
            ("devices", "[]v1beta2.AllocatedDeviceStatus"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimTemplate",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta2.ResourceClaimTemplateSpec"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimTemplateList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta2.ResourceClaimTemplate"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceClaimTemplateSpec",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta2.ResourceClaimSpec")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourcePool",
        &[
            ("name", "string"),
            ("generation", "int64"),
            ("resourceSliceCount", "int64"),
        ],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceSlice",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta2.ResourceSliceSpec")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceSliceList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta2.ResourceSlice")],
    ),
    (
        "k8s.io.api.resource.v1beta2.ResourceSliceSpec",
        &[
            ("driver", "string"),
            ("pool", "v1beta2.ResourcePool"),
            ("nodeName", "string"),
            ("nodeSelector", "v1.NodeSelector"),
            ("allNodes", "bool"),
            ("devices", "[]v1beta2.Device"),
            ("perDeviceNodeSelection", "bool"),
            ("sharedCounters", "[]v1beta2.CounterSet"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1.PriorityClass",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("value", "int32"),
            ("globalDefault", "bool"),
            ("description", "string"),
            ("preemptionPolicy", "v1.PreemptionPolicy"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1.PriorityClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.PriorityClass")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositeGangSchedulingPolicy",
        &[("minGroupCount", "int32")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroup",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha3.CompositePodGroupSpec"),
            ("status", "v1alpha3.CompositePodGroupStatus"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha3.CompositePodGroup")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupSchedulingPolicy",
        &[
            ("basic", "v1alpha3.CompositeBasicSchedulingPolicy"),
            ("gang", "v1alpha3.CompositeGangSchedulingPolicy"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupSpec",
        &[
            ("parentCompositePodGroupName", "string"),
            ("workloadRef", "v1alpha3.WorkloadReference"),
            ("schedulingPolicy", "v1alpha3.CompositePodGroupSchedulingPolicy"),
            ("priorityClassName", "string"),
            ("priority", "int32"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupStatus",
        &[("conditions", "[]v1.Condition")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.CompositePodGroupTemplate",
        &[
            ("name", "string"),
            ("schedulingPolicy", "v1alpha3.CompositePodGroupSchedulingPolicy"),
            ("priorityClassName", "string"),
            ("priority", "int32"),
            ("podGroupTemplates", "[]v1alpha3.PodGroupTemplate"),
            ("compositePodGroupTemplates", "[]v1alpha3.CompositePodGroupTemplate"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.DisruptionMode",
        &[
            ("single", "v1alpha3.SingleDisruptionMode"),
            ("all", "v1alpha3.AllDisruptionMode"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.GangSchedulingPolicy",
        &[("minCount", "int32")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroup",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha3.PodGroupSpec"),
            ("status", "v1alpha3.PodGroupStatus"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha3.PodGroup")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupResourceClaim",
        &[
            ("name", "string"),
            ("resourceClaimName", "string"),
            ("resourceClaimTemplateName", "string"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupResourceClaimStatus",
        &[("name", "string"), ("resourceClaimName", "string")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupSchedulingConstraints",
        &[("topology", "[]v1alpha3.TopologyConstraint")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupSchedulingPolicy",
        &[
            ("basic", "v1alpha3.BasicSchedulingPolicy"),
            ("gang", "v1alpha3.GangSchedulingPolicy"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupSpec",
        &[
            ("parentCompositePodGroupName", "string"),
            ("workloadRef", "v1alpha3.WorkloadReference"),
            ("schedulingPolicy", "v1alpha3.PodGroupSchedulingPolicy"),
            ("schedulingConstraints", "v1alpha3.PodGroupSchedulingConstraints"),
            ("resourceClaims", "[]v1alpha3.PodGroupResourceClaim"),
            ("disruptionMode", "v1alpha3.DisruptionMode"),
            ("priorityClassName", "string"),
            ("priority", "int32"),
            ("preemptionPolicy", "v1alpha3.PreemptionPolicy"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupStatus",
        &[
            ("conditions", "[]v1.Condition"),
            ("resourceClaimStatuses", "[]v1alpha3.PodGroupResourceClaimStatus"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.PodGroupTemplate",
        &[
            ("name", "string"),
            ("schedulingPolicy", "v1alpha3.PodGroupSchedulingPolicy"),
            ("schedulingConstraints", "v1alpha3.PodGroupSchedulingConstraints"),
            ("resourceClaims", "[]v1alpha3.PodGroupResourceClaim"),
            ("disruptionMode", "v1alpha3.DisruptionMode"),
            ("priorityClassName", "string"),
            ("priority", "int32"),
            ("preemptionPolicy", "v1alpha3.PreemptionPolicy"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.TopologyConstraint",
        &[("key", "string")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.TypedLocalObjectReference",
        &[("apiGroup", "string"), ("kind", "string"), ("name", "string")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.Workload",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1alpha3.WorkloadSpec")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.WorkloadList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha3.Workload")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.WorkloadReference",
        &[("workloadName", "string"), ("templateName", "string")],
    ),
    (
        "k8s.io.api.scheduling.v1alpha3.WorkloadSpec",
        &[
            ("controllerRef", "v1alpha3.TypedLocalObjectReference"),
            ("podGroupTemplates", "[]v1alpha3.PodGroupTemplate"),
            ("compositePodGroupTemplates", "[]v1alpha3.CompositePodGroupTemplate"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1beta1.PriorityClass",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("value", "int32"),
            ("globalDefault", "bool"),
            ("description", "string"),
            ("preemptionPolicy", "v1.PreemptionPolicy"),
        ],
    ),
    (
        "k8s.io.api.scheduling.v1beta1.PriorityClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.PriorityClass")],
    ),
    (
        "k8s.io.api.storage.v1.CSIDriver",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.CSIDriverSpec")],
    ),
    (
        "k8s.io.api.storage.v1.CSIDriverList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.CSIDriver")],
    ),
    (
        "k8s.io.api.storage.v1.CSIDriverSpec",
        &[
            ("attachRequired", "bool"),
            ("podInfoOnMount", "bool"),
            ("volumeLifecycleModes", "[]v1.VolumeLifecycleMode"),
            ("storageCapacity", "bool"),
            ("fsGroupPolicy", "v1.FSGroupPolicy"),
            ("tokenRequests", "[]v1.TokenRequest"),
            ("requiresRepublish", "bool"),
            ("seLinuxMount", "bool"),
            ("nodeAllocatableUpdatePeriodSeconds", "int64"),
            ("serviceAccountTokenInSecrets", "bool"),
            ("preventPodSchedulingIfMissing", "bool"),
        ],
    ),
    (
        "k8s.io.api.storage.v1.CSINode",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1.CSINodeSpec")],
    ),
    (
        "k8s.io.api.storage.v1.CSINodeDriver",
        &[
            ("name", "string"),
            ("nodeID", "string"),
            ("topologyKeys", "[]string"),
            ("allocatable", "v1.VolumeNodeResources"),
        ],
    ),
    (
        "k8s.io.api.storage.v1.CSINodeList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.CSINode")],
    ),
    (
        "k8s.io.api.storage.v1.CSINodeSpec",
        &[("drivers", "[]v1.CSINodeDriver")],
    ),
    (
        "k8s.io.api.storage.v1.CSIStorageCapacity",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("nodeTopology", "v1.LabelSelector"),
            ("storageClassName", "string"),
            ("capacity", "resource.Quantity"),
            ("maximumVolumeSize", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.storage.v1.CSIStorageCapacityList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.CSIStorageCapacity")],
    ),
    (
        "k8s.io.api.storage.v1.StorageClass",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("provisioner", "string"),
            ("parameters", "map[string]string"),
            ("reclaimPolicy", "v1.PersistentVolumeReclaimPolicy"),
            ("mountOptions", "[]string"),
            ("allowVolumeExpansion", "bool"),
            ("volumeBindingMode", "v1.VolumeBindingMode"),
            ("allowedTopologies", "[]v1.TopologySelectorTerm"),
        ],
    ),
    (
        "k8s.io.api.storage.v1.StorageClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.StorageClass")],
    ),
    (
        "k8s.io.api.storage.v1.TokenRequest",
        &[("audience", "string"), ("expirationSeconds", "int64")],
    ),
    (
        "k8s.io.api.storage.v1.VolumeAttachment",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.VolumeAttachmentSpec"),
            ("status", "v1.VolumeAttachmentStatus"),
        ],
    ),
    (
        "k8s.io.api.storage.v1.VolumeAttachmentList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.VolumeAttachment")],
    ),
    (
        "k8s.io.api.storage.v1.VolumeAttachmentSource",
        &[
            ("persistentVolumeName", "string"),
            ("inlineVolumeSpec", "v1.PersistentVolumeSpec"),
        ],
    ),
    (
        "k8s.io.api.storage.v1.VolumeAttachmentSpec",
        &[
            ("attacher", "string"),
            ("source", "v1.VolumeAttachmentSource"),
            ("nodeName", "string"),
        ],
    ),
    (
        "k8s.io.api.storage.v1.VolumeAttachmentStatus",
        &[
            ("attached", "bool"),
            ("attachmentMetadata", "map[string]string"),
            ("attachError", "v1.VolumeError"),
            ("detachError", "v1.VolumeError"),
        ],
    ),
    (
        "k8s.io.api.storage.v1.VolumeAttributesClass",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("driverName", "string"),
            ("parameters", "map[string]string"),
        ],
    ),
    (
        "k8s.io.api.storage.v1.VolumeAttributesClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.VolumeAttributesClass")],
    ),
    (
        "k8s.io.api.storage.v1.VolumeError",
        &[("time", "v1.Time"), ("message", "string"), ("errorCode", "int32")],
    ),
    ("k8s.io.api.storage.v1.VolumeNodeResources", &[("count", "int32")]),
    (
        "k8s.io.api.storage.v1alpha1.CSIStorageCapacity",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("nodeTopology", "v1.LabelSelector"),
            ("storageClassName", "string"),
            ("capacity", "resource.Quantity"),
            ("maximumVolumeSize", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.storage.v1alpha1.CSIStorageCapacityList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha1.CSIStorageCapacity")],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttachment",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1alpha1.VolumeAttachmentSpec"),
            ("status", "v1alpha1.VolumeAttachmentStatus"),
        ],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttachmentList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1alpha1.VolumeAttachment")],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttachmentSource",
        &[
            ("persistentVolumeName", "string"),
            ("inlineVolumeSpec", "v1.PersistentVolumeSpec"),
        ],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttachmentSpec",
        &[
            ("attacher", "string"),
            ("source", "v1alpha1.VolumeAttachmentSource"),
            ("nodeName", "string"),
        ],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttachmentStatus",
        &[
            ("attached", "bool"),
            ("attachmentMetadata", "map[string]string"),
            ("attachError", "v1alpha1.VolumeError"),
            ("detachError", "v1alpha1.VolumeError"),
        ],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttributesClass",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("driverName", "string"),
            ("parameters", "map[string]string"),
        ],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeAttributesClassList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1alpha1.VolumeAttributesClass"),
        ],
    ),
    (
        "k8s.io.api.storage.v1alpha1.VolumeError",
        &[("time", "v1.Time"), ("message", "string"), ("errorCode", "int32")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSIDriver",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta1.CSIDriverSpec")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSIDriverList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.CSIDriver")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSIDriverSpec",
        &[
            ("attachRequired", "bool"),
            ("podInfoOnMount", "bool"),
            ("volumeLifecycleModes", "[]v1beta1.VolumeLifecycleMode"),
            ("storageCapacity", "bool"),
            ("fsGroupPolicy", "v1beta1.FSGroupPolicy"),
            ("tokenRequests", "[]v1beta1.TokenRequest"),
            ("requiresRepublish", "bool"),
            ("seLinuxMount", "bool"),
            ("nodeAllocatableUpdatePeriodSeconds", "int64"),
            ("serviceAccountTokenInSecrets", "bool"),
            ("preventPodSchedulingIfMissing", "bool"),
        ],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSINode",
        &[("metadata", "v1.ObjectMeta"), ("spec", "v1beta1.CSINodeSpec")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSINodeDriver",
        &[
            ("name", "string"),
            ("nodeID", "string"),
            ("topologyKeys", "[]string"),
            ("allocatable", "v1beta1.VolumeNodeResources"),
        ],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSINodeList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.CSINode")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSINodeSpec",
        &[("drivers", "[]v1beta1.CSINodeDriver")],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSIStorageCapacity",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("nodeTopology", "v1.LabelSelector"),
            ("storageClassName", "string"),
            ("capacity", "resource.Quantity"),
            ("maximumVolumeSize", "resource.Quantity"),
        ],
    ),
    (
        "k8s.io.api.storage.v1beta1.CSIStorageCapacityList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.CSIStorageCapacity")],
    ),
    (
        "k8s.io.api.storage.v1beta1.StorageClass",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("provisioner", "string"),
            ("parameters", "map[string]string"),
            ("reclaimPolicy", "v1.PersistentVolumeReclaimPolicy"),
            ("mountOptions", "[]string"),
            ("allowVolumeExpansion", "bool"),
            ("volumeBindingMode", "v1beta1.VolumeBindingMode"),
            ("allowedTopologies", "[]v1.TopologySelectorTerm"),
        ],
    ),
    (
        "k8s.io.api.storage.v1beta1.StorageClassList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.StorageClass")],
    ),
    (
        "k8s.io.api.storage.v1beta1.TokenRequest",
        &[("audience", "string"), ("expirationSeconds", "int64")],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttachment",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.VolumeAttachmentSpec"),
            ("status", "v1beta1.VolumeAttachmentStatus"),
        ],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttachmentList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1beta1.VolumeAttachment")],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttachmentSource",
        &[
            ("persistentVolumeName", "string"),
            ("inlineVolumeSpec", "v1.PersistentVolumeSpec"),
        ],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttachmentSpec",
        &[
            ("attacher", "string"),
            ("source", "v1beta1.VolumeAttachmentSource"),
            ("nodeName", "string"),
        ],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttachmentStatus",
        &[
            ("attached", "bool"),
            ("attachmentMetadata", "map[string]string"),
            ("attachError", "v1beta1.VolumeError"),
            ("detachError", "v1beta1.VolumeError"),
        ],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttributesClass",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("driverName", "string"),
            ("parameters", "map[string]string"),
        ],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeAttributesClassList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.VolumeAttributesClass"),
        ],
    ),
    (
        "k8s.io.api.storage.v1beta1.VolumeError",
        &[("time", "v1.Time"), ("message", "string"), ("errorCode", "int32")],
    ),
    ("k8s.io.api.storage.v1beta1.VolumeNodeResources", &[("count", "int32")]),
    (
        "k8s.io.api.storagemigration.v1.StorageVersionMigration",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.StorageVersionMigrationSpec"),
            ("status", "v1.StorageVersionMigrationStatus"),
        ],
    ),
    (
        "k8s.io.api.storagemigration.v1.StorageVersionMigrationList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.StorageVersionMigration")],
    ),
    (
        "k8s.io.api.storagemigration.v1.StorageVersionMigrationSpec",
        &[("resource", "v1.GroupResource")],
    ),
    (
        "k8s.io.api.storagemigration.v1.StorageVersionMigrationStatus",
        &[("conditions", "[]v1.Condition"), ("resourceVersion", "string")],
    ),
    (
        "k8s.io.api.storagemigration.v1beta1.StorageVersionMigration",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.StorageVersionMigrationSpec"),
            ("status", "v1beta1.StorageVersionMigrationStatus"),
        ],
    ),
    (
        "k8s.io.api.storagemigration.v1beta1.StorageVersionMigrationList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.StorageVersionMigration"),
        ],
    ),
    (
        "k8s.io.api.storagemigration.v1beta1.StorageVersionMigrationSpec",
        &[("resource", "v1.GroupResource")],
    ),
    (
        "k8s.io.api.storagemigration.v1beta1.StorageVersionMigrationStatus",
        &[("conditions", "[]v1.Condition"), ("resourceVersion", "string")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ConversionRequest",
        &[
            ("uid", "types.UID"),
            ("desiredAPIVersion", "string"),
            ("objects", "[]runtime.RawExtension"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ConversionResponse",
        &[
            ("uid", "types.UID"),
            ("convertedObjects", "[]runtime.RawExtension"),
            ("result", "v1.Status"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ConversionReview",
        &[
            ("request", "v1.ConversionRequest"),
            ("response", "v1.ConversionResponse"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition",
        &[
            ("name", "string"),
            ("type", "string"),
            ("format", "string"),
            ("description", "string"),
            ("priority", "int32"),
            ("jsonPath", "string"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion",
        &[
            ("strategy", "v1.ConversionStrategyType"),
            ("webhook", "v1.WebhookConversion"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1.CustomResourceDefinitionSpec"),
            ("status", "v1.CustomResourceDefinitionStatus"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition",
        &[
            ("type", "v1.CustomResourceDefinitionConditionType"),
            ("status", "v1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
            ("observedGeneration", "int64"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.CustomResourceDefinition")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames",
        &[
            ("plural", "string"),
            ("singular", "string"),
            ("shortNames", "[]string"),
            ("kind", "string"),
            ("listKind", "string"),
            ("categories", "[]string"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec",
        &[
            ("group", "string"),
            ("names", "v1.CustomResourceDefinitionNames"),
            ("scope", "v1.ResourceScope"),
            ("versions", "[]v1.CustomResourceDefinitionVersion"),
            ("conversion", "v1.CustomResourceConversion"),
            ("preserveUnknownFields", "bool"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus",
        &[
            ("conditions", "[]v1.CustomResourceDefinitionCondition"),
            ("acceptedNames", "v1.CustomResourceDefinitionNames"),
            ("storedVersions", "[]string"),
            ("observedGeneration", "int64"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion",
        &[
            ("name", "string"),
            ("served", "bool"),
            ("storage", "bool"),
            ("deprecated", "bool"),
            ("deprecationWarning", "string"),
            ("schema", "v1.CustomResourceValidation"),
            ("subresources", "v1.CustomResourceSubresources"),
            ("additionalPrinterColumns", "[]v1.CustomResourceColumnDefinition"),
            ("selectableFields", "[]v1.SelectableField"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceScale",
        &[
            ("specReplicasPath", "string"),
            ("statusReplicasPath", "string"),
            ("labelSelectorPath", "string"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresources",
        &[
            ("status", "v1.CustomResourceSubresourceStatus"),
            ("scale", "v1.CustomResourceSubresourceScale"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation",
        &[("openAPIV3Schema", "v1.JSONSchemaProps")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation",
        &[("description", "string"), ("url", "string")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
        &[
            ("id", "string"),
            ("$schema", "v1.JSONSchemaURL"),
            ("$ref", "string"),
            ("description", "string"),
            ("type", "string"),
            ("format", "string"),
            ("title", "string"),
            ("default", "v1.JSON"),
            ("maximum", "float64"),
            ("exclusiveMaximum", "bool"),
            ("minimum", "float64"),
            ("exclusiveMinimum", "bool"),
            ("maxLength", "int64"),
            ("minLength", "int64"),
            ("pattern", "string"),
            ("maxItems", "int64"),
            ("minItems", "int64"),
            ("uniqueItems", "bool"),
            ("multipleOf", "float64"),
            ("enum", "[]v1.JSON"),
            ("maxProperties", "int64"),
            ("minProperties", "int64"),
            ("required", "[]string"),
            ("items", "v1.JSONSchemaPropsOrArray"),
            ("allOf", "[]v1.JSONSchemaProps"),
            ("oneOf", "[]v1.JSONSchemaProps"),
            ("anyOf", "[]v1.JSONSchemaProps"),
            ("not", "v1.JSONSchemaProps"),
            ("properties", "map[string]v1.JSONSchemaProps"),
            ("additionalProperties", "v1.JSONSchemaPropsOrBool"),
            ("patternProperties", "map[string]v1.JSONSchemaProps"),
            ("dependencies", "v1.JSONSchemaDependencies"),
            ("additionalItems", "v1.JSONSchemaPropsOrBool"),
            ("definitions", "v1.JSONSchemaDefinitions"),
            ("externalDocs", "v1.ExternalDocumentation"),
            ("example", "v1.JSON"),
            ("nullable", "bool"),
            ("x-kubernetes-preserve-unknown-fields", "bool"),
            ("x-kubernetes-embedded-resource", "bool"),
            ("x-kubernetes-int-or-string", "bool"),
            ("x-kubernetes-list-map-keys", "[]string"),
            ("x-kubernetes-list-type", "string"),
            ("x-kubernetes-map-type", "string"),
            ("x-kubernetes-validations", "v1.ValidationRules"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.SelectableField",
        &[("jsonPath", "string")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ServiceReference",
        &[
            ("namespace", "string"),
            ("name", "string"),
            ("path", "string"),
            ("port", "int32"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.ValidationRule",
        &[
            ("rule", "string"),
            ("message", "string"),
            ("messageExpression", "string"),
            ("reason", "v1.FieldValueErrorReason"),
            ("fieldPath", "string"),
            ("optionalOldSelf", "bool"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig",
        &[
            ("url", "string"),
            ("service", "v1.ServiceReference"),
            ("caBundle", "[]uint8"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.WebhookConversion",
        &[
            ("clientConfig", "v1.WebhookClientConfig"),
            ("conversionReviewVersions", "[]string"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ConversionRequest",
        &[
            ("uid", "types.UID"),
            ("desiredAPIVersion", "string"),
            ("objects", "[]runtime.RawExtension"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ConversionResponse",
        &[
            ("uid", "types.UID"),
            ("convertedObjects", "[]runtime.RawExtension"),
            ("result", "v1.Status"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ConversionReview",
        &[
            ("request", "v1beta1.ConversionRequest"),
            ("response", "v1beta1.ConversionResponse"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceColumnDefinition",
        &[
            ("name", "string"),
            ("type", "string"),
            ("format", "string"),
            ("description", "string"),
            ("priority", "int32"),
            ("JSONPath", "string"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceConversion",
        &[
            ("strategy", "v1beta1.ConversionStrategyType"),
            ("webhookClientConfig", "v1beta1.WebhookClientConfig"),
            ("conversionReviewVersions", "[]string"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinition",
        &[
            ("metadata", "v1.ObjectMeta"),
            ("spec", "v1beta1.CustomResourceDefinitionSpec"),
            ("status", "v1beta1.CustomResourceDefinitionStatus"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionCondition",
        &[
            ("type", "v1beta1.CustomResourceDefinitionConditionType"),
            ("status", "v1beta1.ConditionStatus"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
            ("observedGeneration", "int64"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionList",
        &[
            ("metadata", "v1.ListMeta"),
            ("items", "[]v1beta1.CustomResourceDefinition"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionNames",
        &[
            ("plural", "string"),
            ("singular", "string"),
            ("shortNames", "[]string"),
            ("kind", "string"),
            ("listKind", "string"),
            ("categories", "[]string"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionSpec",
        &[
            ("group", "string"),
            ("version", "string"),
            ("names", "v1beta1.CustomResourceDefinitionNames"),
            ("scope", "v1beta1.ResourceScope"),
            ("validation", "v1beta1.CustomResourceValidation"),
            ("subresources", "v1beta1.CustomResourceSubresources"),
            ("versions", "[]v1beta1.CustomResourceDefinitionVersion"),
            ("additionalPrinterColumns", "[]v1beta1.CustomResourceColumnDefinition"),
            ("selectableFields", "[]v1beta1.SelectableField"),
            ("conversion", "v1beta1.CustomResourceConversion"),
            ("preserveUnknownFields", "bool"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionStatus",
        &[
            ("conditions", "[]v1beta1.CustomResourceDefinitionCondition"),
            ("acceptedNames", "v1beta1.CustomResourceDefinitionNames"),
            ("storedVersions", "[]string"),
            ("observedGeneration", "int64"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinitionVersion",
        &[
            ("name", "string"),
            ("served", "bool"),
            ("storage", "bool"),
            ("deprecated", "bool"),
            ("deprecationWarning", "string"),
            ("schema", "v1beta1.CustomResourceValidation"),
            ("subresources", "v1beta1.CustomResourceSubresources"),
            ("additionalPrinterColumns", "[]v1beta1.CustomResourceColumnDefinition"),
            ("selectableFields", "[]v1beta1.SelectableField"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceSubresourceScale",
        &[
            ("specReplicasPath", "string"),
            ("statusReplicasPath", "string"),
            ("labelSelectorPath", "string"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceSubresources",
        &[
            ("status", "v1beta1.CustomResourceSubresourceStatus"),
            ("scale", "v1beta1.CustomResourceSubresourceScale"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceValidation",
        &[("openAPIV3Schema", "v1beta1.JSONSchemaProps")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ExternalDocumentation",
        &[("description", "string"), ("url", "string")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
        &[
            ("id", "string"),
            ("$schema", "v1beta1.JSONSchemaURL"),
            ("$ref", "string"),
            ("description", "string"),
            ("type", "string"),
            ("format", "string"),
            ("title", "string"),
            ("default", "v1beta1.JSON"),
            ("maximum", "float64"),
            ("exclusiveMaximum", "bool"),
            ("minimum", "float64"),
            ("exclusiveMinimum", "bool"),
            ("maxLength", "int64"),
            ("minLength", "int64"),
            ("pattern", "string"),
            ("maxItems", "int64"),
            ("minItems", "int64"),
            ("uniqueItems", "bool"),
            ("multipleOf", "float64"),
            ("enum", "[]v1beta1.JSON"),
            ("maxProperties", "int64"),
            ("minProperties", "int64"),
            ("required", "[]string"),
            ("items", "v1beta1.JSONSchemaPropsOrArray"),
            ("allOf", "[]v1beta1.JSONSchemaProps"),
            ("oneOf", "[]v1beta1.JSONSchemaProps"),
            ("anyOf", "[]v1beta1.JSONSchemaProps"),
            ("not", "v1beta1.JSONSchemaProps"),
            ("properties", "map[string]v1beta1.JSONSchemaProps"),
            ("additionalProperties", "v1beta1.JSONSchemaPropsOrBool"),
            ("patternProperties", "map[string]v1beta1.JSONSchemaProps"),
            ("dependencies", "v1beta1.JSONSchemaDependencies"),
            ("additionalItems", "v1beta1.JSONSchemaPropsOrBool"),
            ("definitions", "v1beta1.JSONSchemaDefinitions"),
            ("externalDocs", "v1beta1.ExternalDocumentation"),
            ("example", "v1beta1.JSON"),
            ("nullable", "bool"),
            ("x-kubernetes-preserve-unknown-fields", "bool"),
            ("x-kubernetes-embedded-resource", "bool"),
            ("x-kubernetes-int-or-string", "bool"),
            ("x-kubernetes-list-map-keys", "[]string"),
            ("x-kubernetes-list-type", "string"),
            ("x-kubernetes-map-type", "string"),
            ("x-kubernetes-validations", "v1beta1.ValidationRules"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.SelectableField",
        &[("jsonPath", "string")],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ServiceReference",
        &[
            ("namespace", "string"),
            ("name", "string"),
            ("path", "string"),
            ("port", "int32"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.ValidationRule",
        &[
            ("rule", "string"),
            ("message", "string"),
            ("messageExpression", "string"),
            ("reason", "v1beta1.FieldValueErrorReason"),
            ("fieldPath", "string"),
            ("optionalOldSelf", "bool"),
        ],
    ),
    (
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1beta1.WebhookClientConfig",
        &[
            ("url", "string"),
            ("service", "v1beta1.ServiceReference"),
            ("caBundle", "[]uint8"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIGroup",
        &[
            ("name", "string"),
            ("versions", "[]v1.GroupVersionForDiscovery"),
            ("preferredVersion", "v1.GroupVersionForDiscovery"),
            ("serverAddressByClientCIDRs", "[]v1.ServerAddressByClientCIDR"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIGroupList",
        &[("groups", "[]v1.APIGroup")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIResource",
        &[
            ("name", "string"),
            ("singularName", "string"),
            ("namespaced", "bool"),
            ("group", "string"),
            ("version", "string"),
            ("kind", "string"),
            ("verbs", "v1.Verbs"),
            ("shortNames", "[]string"),
            ("categories", "[]string"),
            ("storageVersionHash", "string"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIResourceList",
        &[("groupVersion", "string"), ("resources", "[]v1.APIResource")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.APIVersions",
        &[
            ("versions", "[]string"),
            ("serverAddressByClientCIDRs", "[]v1.ServerAddressByClientCIDR"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ApplyOptions",
        &[("dryRun", "[]string"), ("force", "bool"), ("fieldManager", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.Condition",
        &[
            ("type", "string"),
            ("status", "v1.ConditionStatus"),
            ("observedGeneration", "int64"),
            ("lastTransitionTime", "v1.Time"),
            ("reason", "string"),
            ("message", "string"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.CreateOptions",
        &[
            ("dryRun", "[]string"),
            ("fieldManager", "string"),
            ("fieldValidation", "string"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions",
        &[
            ("gracePeriodSeconds", "int64"),
            ("preconditions", "v1.Preconditions"),
            ("orphanDependents", "bool"),
            ("propagationPolicy", "v1.DeletionPropagation"),
            ("dryRun", "[]string"),
            ("ignoreStoreReadErrorWithClusterBreakingPotential", "bool"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement",
        &[
            ("key", "string"),
            ("operator", "v1.FieldSelectorOperator"),
            ("values", "[]string"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GetOptions",
        &[("resourceVersion", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupKind",
        &[("group", "string"), ("kind", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupResource",
        &[("group", "string"), ("resource", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersion",
        &[("group", "string"), ("version", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery",
        &[("groupVersion", "string"), ("version", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionKind",
        &[("group", "string"), ("version", "string"), ("kind", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionResource",
        &[("group", "string"), ("version", "string"), ("resource", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",
        &[
            ("matchLabels", "map[string]string"),
            ("matchExpressions", "[]v1.LabelSelectorRequirement"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",
        &[
            ("key", "string"),
            ("operator", "v1.LabelSelectorOperator"),
            ("values", "[]string"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.List",
        &[("metadata", "v1.ListMeta"), ("items", "[]runtime.RawExtension")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",
        &[
            ("selfLink", "string"),
            ("resourceVersion", "string"),
            ("continue", "string"),
            ("remainingItemCount", "int64"),
            ("shardInfo", "v1.ShardInfo"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ListOptions",
        &[
            ("labelSelector", "string"),
            ("fieldSelector", "string"),
            ("watch", "bool"),
            ("allowWatchBookmarks", "bool"),
            ("resourceVersion", "string"),
            ("resourceVersionMatch", "v1.ResourceVersionMatch"),
            ("timeoutSeconds", "int64"),
            ("limit", "int64"),
            ("continue", "string"),
            ("sendInitialEvents", "bool"),
            ("shardSelector", "string"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
        &[
            ("manager", "string"),
            ("operation", "v1.ManagedFieldsOperationType"),
            ("apiVersion", "string"),
            ("time", "v1.Time"),
            ("fields", "v1.Fields"),
            ("fieldsType", "string"),
            ("fieldsV1", "v1.FieldsV1"),
            ("subresource", "string"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        &[
            ("name", "string"),
            ("generateName", "string"),
            ("namespace", "string"),
            ("selfLink", "string"),
            ("uid", "types.UID"),
            ("resourceVersion", "string"),
            ("generation", "int64"),
            ("creationTimestamp", "v1.Time"),
            ("deletionTimestamp", "v1.Time"),
            ("deletionGracePeriodSeconds", "int64"),
            ("labels", "map[string]string"),
            ("annotations", "map[string]string"),
            ("ownerReferences", "[]v1.OwnerReference"),
            ("finalizers", "[]string"),
            ("managedFields", "[]v1.ManagedFieldsEntry"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference",
        &[
            ("apiVersion", "string"),
            ("kind", "string"),
            ("name", "string"),
            ("uid", "types.UID"),
            ("controller", "bool"),
            ("blockOwnerDeletion", "bool"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata",
        &[("metadata", "v1.ObjectMeta")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.PartialObjectMetadata")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.PatchOptions",
        &[
            ("dryRun", "[]string"),
            ("force", "bool"),
            ("fieldManager", "string"),
            ("fieldValidation", "string"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.Preconditions",
        &[("uid", "types.UID"), ("resourceVersion", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.RootPaths",
        &[("paths", "[]string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR",
        &[("clientCIDR", "string"), ("serverAddress", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.ShardInfo",
        &[("selector", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
        &[
            ("metadata", "v1.ListMeta"),
            ("status", "string"),
            ("message", "string"),
            ("reason", "v1.StatusReason"),
            ("details", "v1.StatusDetails"),
            ("code", "int32"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.StatusCause",
        &[("reason", "v1.CauseType"), ("message", "string"), ("field", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.StatusDetails",
        &[
            ("name", "string"),
            ("group", "string"),
            ("kind", "string"),
            ("uid", "types.UID"),
            ("causes", "[]v1.StatusCause"),
            ("retryAfterSeconds", "int32"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.TableOptions",
        &[("includeObject", "v1.IncludeObjectPolicy")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.Timestamp",
        &[("seconds", "int64"), ("nanos", "int32")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.TypeMeta",
        &[("kind", "string"), ("apiVersion", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.UpdateOptions",
        &[
            ("dryRun", "[]string"),
            ("fieldManager", "string"),
            ("fieldValidation", "string"),
        ],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent",
        &[("type", "string"), ("object", "runtime.RawExtension")],
    ),
    (
        "k8s.io.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList",
        &[("metadata", "v1.ListMeta"), ("items", "[]v1.PartialObjectMetadata")],
    ),
    (
        "k8s.io.apimachinery.pkg.runtime.TypeMeta",
        &[("apiVersion", "string"), ("kind", "string")],
    ),
    (
        "k8s.io.apimachinery.pkg.runtime.Unknown",
        &[("apiVersion", "string"), ("kind", "string")],
    ),
];

/// Types declared over a slice or map, as `reflect` prints them: (name, underlying).
pub(crate) const GO_COMPOSITES: &[(&str, &str)] = &[
    ("v1.JSONSchemaDefinitions", "map[string]v1.JSONSchemaProps"),
    (
        "v1.JSONSchemaDependencies",
        "map[string]v1.JSONSchemaPropsOrStringArray",
    ),
    ("v1.ResourceList", "map[v1.ResourceName]resource.Quantity"),
    ("v1.ValidationRules", "[]v1.ValidationRule"),
    ("v1.Verbs", "[]string"),
    ("v1beta1.JSONSchemaDefinitions", "map[string]v1beta1.JSONSchemaProps"),
    (
        "v1beta1.JSONSchemaDependencies",
        "map[string]v1beta1.JSONSchemaPropsOrStringArray",
    ),
    ("v1beta1.ValidationRules", "[]v1beta1.ValidationRule"),
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
