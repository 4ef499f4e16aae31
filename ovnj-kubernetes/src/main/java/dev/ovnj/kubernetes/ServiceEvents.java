package dev.ovnj.kubernetes;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records Kubernetes Events on Services, as {@code kubectl describe service} shows them. An
 * Event that cannot be written is logged and dropped: it must never fail a reconciliation.
 */
final class ServiceEvents {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceEvents.class);

    private final KubernetesClient kube;
    private final String component;

    ServiceEvents(KubernetesClient kube, String component) {
        this.kube = kube;
        this.component = component;
    }

    void record(Service service, boolean warning, String reason, String message) {
        String now = Instant.now().toString();
        String ns = service.getMetadata().getNamespace();
        try {
            kube.v1().events().inNamespace(ns).resource(new EventBuilder()
                    .withNewMetadata().withNamespace(ns)
                    .withName(service.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8)).endMetadata()
                    .withNewInvolvedObject().withApiVersion("v1").withKind("Service").withNamespace(ns)
                    .withName(service.getMetadata().getName()).withUid(service.getMetadata().getUid())
                    .withResourceVersion(service.getMetadata().getResourceVersion()).endInvolvedObject()
                    .withType(warning ? "Warning" : "Normal").withReason(reason).withMessage(message)
                    .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                    .withNewSource().withComponent(component).endSource()
                    .withReportingComponent(component)
                    .build()).create();
        } catch (KubernetesClientException e) {
            LOG.warn("Event {} on Service {}/{} not recorded: {}", reason, ns, service.getMetadata().getName(), e.getMessage());
        }
    }
}
