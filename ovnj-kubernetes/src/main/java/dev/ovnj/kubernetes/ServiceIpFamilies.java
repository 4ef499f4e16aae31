package dev.ovnj.kubernetes;

import dev.ovnj.nb.ip.IpFamily;
import io.fabric8.kubernetes.api.model.Service;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The IP families a Service's load balancer serves: what {@code spec.ipFamilyPolicy} and
 * {@code spec.ipFamilies} ask for, against the families the external network (the controller's
 * external router port) has. Decided before any address is claimed, so a Service that cannot be
 * served holds no claim of a family it could have had.
 *
 * <ul>
 *   <li>{@code SingleStack} (or no policy, the API server's default): the Service's first family;</li>
 *   <li>{@code PreferDualStack}: the Service's families that the network has, saying which one is missing;</li>
 *   <li>{@code RequireDualStack}: an IPv4 and an IPv6 address, or a refusal naming the missing family.</li>
 * </ul>
 *
 * @param families the families to claim an address and a VIP for, in the Service's order
 * @param note what the condition must say about a family the Service asked for and does not get
 */
record ServiceIpFamilies(List<IpFamily> families, Optional<String> note) {
    static final String POLICY_FIELD = "spec.ipFamilyPolicy";

    ServiceIpFamilies {
        families = List.copyOf(families);
    }

    /**
     * The families to serve.
     *
     * @param service the Service
     * @param available the families of the external port's networks
     * @param port the external port's name, for the messages
     * @return the families and what is missing
     * @throws IllegalArgumentException naming the field and the missing family when the Service cannot be served
     */
    static ServiceIpFamilies choose(Service service, Set<IpFamily> available, String port) {
        String policy = Optional.ofNullable(service.getSpec().getIpFamilyPolicy()).orElse("SingleStack");
        List<IpFamily> declared = declared(service);
        switch (policy) {
            case "SingleStack" -> {
                IpFamily first = declared.get(0);
                if (!available.contains(first)) {
                    throw new IllegalArgumentException(POLICY_FIELD + " SingleStack asks for " + name(first)
                            + " (spec.ipFamilies[0]), and the external network (Logical_Router_Port " + port + ") has no "
                            + name(first) + " network");
                }
                return new ServiceIpFamilies(List.of(first), Optional.empty());
            }
            case "PreferDualStack" -> {
                List<IpFamily> served = declared.stream().filter(available::contains).toList();
                List<IpFamily> missing = declared.stream().filter(f -> !available.contains(f)).toList();
                if (served.isEmpty()) {
                    throw new IllegalArgumentException(POLICY_FIELD + " PreferDualStack: the external network (Logical_Router_Port "
                            + port + ") has none of " + names(declared));
                }
                return new ServiceIpFamilies(served, missing.isEmpty() ? Optional.empty()
                        : Optional.of(POLICY_FIELD + " PreferDualStack: the external network has no " + names(missing)
                        + " network, serving " + names(served) + " only"));
            }
            case "RequireDualStack" -> {
                List<IpFamily> both = new ArrayList<>(declared);
                for (IpFamily f : IpFamily.values()) {
                    if (!both.contains(f)) {
                        both.add(f);
                    }
                }
                List<IpFamily> missing = both.stream().filter(f -> !available.contains(f)).toList();
                if (!missing.isEmpty()) {
                    throw new IllegalArgumentException(POLICY_FIELD + " RequireDualStack: the external network (Logical_Router_Port "
                            + port + ") has no " + names(missing) + " network; no address is claimed until it has");
                }
                return new ServiceIpFamilies(both, Optional.empty());
            }
            default -> throw new IllegalArgumentException(POLICY_FIELD + ": \"" + policy
                    + "\" is not SingleStack, PreferDualStack or RequireDualStack");
        }
    }

    /** {@code spec.ipFamilies}, IPv4 when absent (the API server always fills it in). */
    private static List<IpFamily> declared(Service service) {
        List<String> declared = service.getSpec().getIpFamilies();
        if (declared == null || declared.isEmpty()) {
            return List.of(IpFamily.IPV4);
        }
        List<IpFamily> out = new ArrayList<>();
        for (String f : declared) {
            IpFamily family = switch (f) {
                case "IPv4" -> IpFamily.IPV4;
                case "IPv6" -> IpFamily.IPV6;
                default -> throw new IllegalArgumentException("spec.ipFamilies: \"" + f + "\" is neither IPv4 nor IPv6");
            };
            if (!out.contains(family)) {
                out.add(family);
            }
        }
        return List.copyOf(out);
    }

    /** A family as Kubernetes spells it. */
    static String name(IpFamily family) {
        return family == IpFamily.IPV4 ? "IPv4" : "IPv6";
    }

    private static String names(List<IpFamily> families) {
        return String.join(" and ", families.stream().map(ServiceIpFamilies::name).toList());
    }
}
