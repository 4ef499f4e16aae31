package dev.ovnj.kubernetes;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.ovsdb.client.OvsdbClient;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the load balancers of Services that no longer exist, which the finalizer cannot catch
 * (a finalizer removed by hand, a Service deleted while no controller ran). It deletes only
 * what a fresh read of the API server proves unused: it reads the owner's load balancers from
 * the Northbound cache first, then lists the Services, and removes a load balancer only when its
 * Service is in neither the list nor a GET right before the removal; so a Service created in
 * between keeps its load balancer. It also releases the address of a sharing group
 * ({@link AddressSharing}) none of whose Services is left, such as one whose last Service was
 * deleted while no controller ran.
 */
final class OrphanJanitor {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanJanitor.class);

    private final KubernetesClient kube;
    private final OvsdbClient nb;
    private final LoadBalancerEngine engine;
    private final ServiceEips eips;
    private final ControllerSettings settings;
    private final Predicate<Service> serves;

    OrphanJanitor(KubernetesClient kube, OvsdbClient nb, LoadBalancerEngine engine, ServiceEips eips, ControllerSettings settings,
                  Predicate<Service> serves) {
        this.kube = kube;
        this.nb = nb;
        this.engine = engine;
        this.eips = eips;
        this.settings = settings;
        this.serves = serves;
    }

    /**
     * One pass.
     *
     * @return the spec names removed
     */
    Set<String> sweep() throws Exception {
        Set<String> owned = nb.cache().read(() -> {
            Set<String> names = new TreeSet<>();
            for (var row : nb.cache().table(LoadBalancer.TABLE.name()).rows()) {
                var ids = LoadBalancer.fromRow(row).externalIds();
                if (settings.owner().equals(ids.get(DesiredRow.OWNER_KEY)) && ids.get(DesiredRow.SPEC_KEY) != null) {
                    names.add(ids.get(DesiredRow.SPEC_KEY));
                }
            }
            return names;
        });
        Set<String> live = new TreeSet<>();
        Set<String> liveGroups = new TreeSet<>();
        for (Service s : kube.services().inAnyNamespace().list().getItems()) {
            if (serves.test(s) || s.hasFinalizer(ControllerSettings.FINALIZER)) {
                live.add(ServiceSpecs.specName(s));
                ServiceAnnotations.shareKey(s).ifPresent(k -> liveGroups.add(AddressSharing.owner(s.getMetadata().getNamespace(), k)));
            }
        }
        Set<String> removed = new TreeSet<>();
        for (String name : owned) {
            int slash = name.indexOf('/');
            if (live.contains(name) || slash < 0) {
                continue;
            }
            Service now = kube.services().inNamespace(name.substring(0, slash)).withName(name.substring(slash + 1)).get();
            if (now != null && (serves.test(now) || now.hasFinalizer(ControllerSettings.FINALIZER))) {
                continue;
            }
            engine.remove(settings.owner(), name).get(engine.requestTimeout().toSeconds() + 2, TimeUnit.SECONDS);
            if (!engine.status(settings.owner()).containsKey(name)) {
                eips.releaseAll(name);
            }
            removed.add(name);
        }
        if (!removed.isEmpty()) {
            LOG.info("removed the load balancers of {} Services that no longer exist: {}", removed.size(), removed);
        }
        for (String group : eips.owners()) {
            if (AddressSharing.namespaceOf(group).isPresent() && !liveGroups.contains(group)) {
                eips.releaseAll(group);
                LOG.info("released the address of sharing group {}: none of its Services is left", group);
            }
        }
        return removed;
    }
}
