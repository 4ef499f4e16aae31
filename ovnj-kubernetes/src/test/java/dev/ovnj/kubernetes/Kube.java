package dev.ovnj.kubernetes;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.Map;

/** Services and EndpointSlices as the API server and the EndpointSlice controller would hold them. */
final class Kube {
    static final String NAMESPACE = "shop";

    private Kube() {
    }

    /** Port http 80/TCP to the named container port "web", and dns 53/UDP to 5353. */
    static Service loadBalancer(String name) {
        return new ServiceBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
                .withNewSpec().withType("LoadBalancer").withSelector(Map.of("app", name))
                .addNewPort().withName("http").withProtocol("TCP").withPort(80).withTargetPort(new IntOrString("web")).endPort()
                .addNewPort().withName("dns").withProtocol("UDP").withPort(53).withTargetPort(new IntOrString(5353)).endPort()
                .endSpec().build();
    }

    /** A slice publishing http as 8080 and dns as 5353, the given endpoints ready and 10.1.0.99 not. */
    static EndpointSlice slice(String name, String service, String... readyIps) {
        EndpointSliceBuilder slice = new EndpointSliceBuilder()
                .withNewMetadata().withName(name).withNamespace(NAMESPACE)
                .addToLabels("kubernetes.io/service-name", service).endMetadata()
                .withAddressType("IPv4")
                .addNewPort().withName("http").withProtocol("TCP").withPort(8080).endPort()
                .addNewPort().withName("dns").withProtocol("UDP").withPort(5353).endPort();
        for (String ip : readyIps) {
            slice.addNewEndpoint().withAddresses(ip).withNewConditions().withReady(true).endConditions().endEndpoint();
        }
        return slice.addNewEndpoint().withAddresses("10.1.0.99").withNewConditions().withReady(false).endConditions()
                .endEndpoint().build();
    }
}
