package dev.ovnj.kubernetes;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * What the informers keep of each Service and EndpointSlice ({@link PrunedItemStore}): a cluster
 * has far more Services than the controller serves, and each object carries fields it never reads.
 *
 * <ul>
 *   <li>A Service the controller does not look at ({@link ServiceLoadBalancerReconciler#accepts}
 *       false: not of type LoadBalancer of its class, no finalizer of its own) is kept as the
 *       identity, finalizers and the two spec fields that decide that, so that the decision
 *       reads the same on the kept form; when it becomes one to look at, its update event brings
 *       it whole again.</li>
 *   <li>Every other Service is kept whole but for {@code metadata.managedFields}.</li>
 *   <li>An EndpointSlice is kept as its identity, labels, address type, ports and, per endpoint,
 *       its addresses and conditions: what {@link ServiceSpecs} reads. A field it starts to read
 *       must be kept here too.</li>
 * </ul>
 */
final class CachedForms {
    private CachedForms() {
    }

    /**
     * The form a Service is kept in.
     *
     * @param whole whether the controller looks at a Service
     * @return the pruning
     */
    static UnaryOperator<Service> service(Predicate<Service> whole) {
        return service -> {
            if (whole.test(service)) {
                service.getMetadata().setManagedFields(null);
                return service;
            }
            ServiceBuilder kept = new ServiceBuilder().withMetadata(identity(service.getMetadata()));
            if (service.getSpec() != null) {
                kept.withNewSpec().withType(service.getSpec().getType()).withLoadBalancerClass(service.getSpec().getLoadBalancerClass())
                        .endSpec();
            }
            return kept.build();
        };
    }

    /**
     * The form an EndpointSlice is kept in.
     *
     * @param slice the slice of an informer event
     * @return what is kept of it
     */
    static EndpointSlice slice(EndpointSlice slice) {
        List<Endpoint> endpoints = slice.getEndpoints() == null ? null : slice.getEndpoints().stream()
                .map(e -> new EndpointBuilder().withAddresses(e.getAddresses()).withConditions(e.getConditions()).build()).toList();
        return new EndpointSliceBuilder().withMetadata(identity(slice.getMetadata())).withAddressType(slice.getAddressType())
                .withPorts(slice.getPorts()).withEndpoints(endpoints).build();
    }

    /** Identity, version, labels and finalizers: what JOSDK and the mapping of slices to Services use. */
    private static ObjectMeta identity(ObjectMeta m) {
        return new ObjectMetaBuilder().withName(m.getName()).withNamespace(m.getNamespace()).withUid(m.getUid())
                .withResourceVersion(m.getResourceVersion()).withGeneration(m.getGeneration()).withLabels(m.getLabels())
                .withFinalizers(m.getFinalizers()).withDeletionTimestamp(m.getDeletionTimestamp()).build();
    }
}
