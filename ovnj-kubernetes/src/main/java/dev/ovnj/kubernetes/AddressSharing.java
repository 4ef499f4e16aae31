package dev.ovnj.kubernetes;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * MetalLB's rule for shared addresses ({@value ServiceAnnotations#SHARED_IP}): the Services of one
 * namespace with the same key share one address per family, as long as no (protocol, port)
 * collides; on a collision the Service holding the port (its load balancer exists) keeps it and the
 * other waits, whatever their ages; only between two that hold nothing yet does the older one (by
 * {@code creationTimestamp}, then name) go first.
 *
 * <p>The address is claimed in the Northbound database for the group, not for a Service: the
 * claim's owner is {@code <namespace>/allow-shared-ip=<key>} (no Service name contains {@code =}),
 * and the sharers are whichever Services carry the key. A restarted controller, or the other
 * replica, reads the group's claim like any other and writes nothing; a sharer deleted while no
 * controller ran changes nothing for the others; the claim is released once no sharer is left.
 */
final class AddressSharing {
    private static final String MARK = "/allow-shared-ip=";

    /** Oldest first: {@code creationTimestamp} (a missing or unreadable one counts as newest), then namespace and name. */
    static final Comparator<Service> AGE = Comparator.comparing(AddressSharing::created)
            .thenComparing(s -> s.getMetadata().getNamespace(), Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(s -> s.getMetadata().getName());

    private AddressSharing() {
    }

    /** The claim owner of a namespace's sharing key. */
    static String owner(String namespace, String key) {
        return namespace + MARK + key;
    }

    /** The namespace of a group's claim owner; empty when the owner is no group (a Service's {@code ns/name}). */
    static Optional<String> namespaceOf(String owner) {
        int mark = owner.indexOf(MARK);
        return mark > 0 ? Optional.of(owner.substring(0, mark)) : Optional.empty();
    }

    /** The key of a group's claim owner. */
    static Optional<String> keyOf(String owner) {
        int mark = owner.indexOf(MARK);
        return mark > 0 ? Optional.of(owner.substring(mark + MARK.length())) : Optional.empty();
    }

    /** The claim owner a Service's addresses are held by: its group's, or its own {@code ns/name}. */
    static String claimOwner(Service service) {
        return ServiceAnnotations.shareKey(service).map(k -> owner(service.getMetadata().getNamespace(), k))
                .orElseGet(() -> ServiceSpecs.specName(service));
    }

    /** The Services of a group that still count as sharers: served and not being deleted, oldest first. */
    static List<Service> sharers(Collection<Service> services, String namespace, String key, Predicate<Service> serves) {
        return services.stream()
                .filter(s -> namespace.equals(s.getMetadata().getNamespace()) && s.getMetadata().getDeletionTimestamp() == null)
                .filter(s -> ServiceAnnotations.shareKey(s).filter(key::equals).isPresent() && serves.test(s))
                .sorted(AGE).toList();
    }

    /**
     * The first (protocol, port) of a Service that another sharer keeps, in words naming the port
     * and that sharer: a sharer that holds it (its load balancer exists) when this one does not, or
     * an older one when neither holds it.
     *
     * @param service the Service
     * @param sharers its group's sharers (it may be among them)
     * @param holds whether a Service holds its ports now (its load balancer exists)
     * @return e.g. {@code port TCP/53 is held by shop/dns-tcp, which serves it with the same allow-shared-ip key}
     */
    static Optional<String> collision(Service service, List<Service> sharers, Predicate<Service> holds) {
        boolean mineHeld = holds.test(service);
        for (Service other : sharers) {
            if (sameService(other, service)) {
                continue;
            }
            boolean theirsHeld = holds.test(other);
            boolean theyKeep = theirsHeld && !mineHeld || theirsHeld == mineHeld && AGE.compare(other, service) < 0;
            if (!theyKeep) {
                continue;
            }
            for (ServicePort mine : ports(service)) {
                for (ServicePort theirs : ports(other)) {
                    if (protocol(mine).equals(protocol(theirs)) && Objects.equals(mine.getPort(), theirs.getPort())) {
                        return Optional.of("port " + protocol(mine) + "/" + mine.getPort() + " is held by " + ServiceSpecs.specName(other)
                                + (theirsHeld ? ", which serves it" : ", an older Service waiting for it") + " with the same "
                                + ServiceAnnotations.SHARED_IP + " key");
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static boolean sameService(Service a, Service b) {
        return Objects.equals(a.getMetadata().getNamespace(), b.getMetadata().getNamespace())
                && Objects.equals(a.getMetadata().getName(), b.getMetadata().getName());
    }

    private static List<ServicePort> ports(Service s) {
        return s.getSpec() == null || s.getSpec().getPorts() == null ? List.of() : s.getSpec().getPorts();
    }

    private static String protocol(ServicePort p) {
        return p.getProtocol() == null ? "TCP" : p.getProtocol();
    }

    private static Instant created(Service s) {
        String t = s.getMetadata().getCreationTimestamp();
        if (t == null) {
            return Instant.MAX;
        }
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            return Instant.MAX;
        }
    }
}
