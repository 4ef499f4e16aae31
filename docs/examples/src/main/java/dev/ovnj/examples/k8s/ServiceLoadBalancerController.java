package dev.ovnj.examples.k8s;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.nb.eip.EipAllocator;
import dev.ovnj.nb.eip.EipRequest;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exposes a namespace's Services of type LoadBalancer through OVN: each gets an EIP from the
 * project router's external port, written to {@code status.loadBalancer.ingress[0].ip}, and one
 * load balancer (VIP per Service port) whose backends are the ready endpoints of its
 * EndpointSlices. Deleting the Service, or changing its type, deletes the rows and releases the EIP.
 *
 * <p>Every event names a Service; its reconciliation reads the informers' caches, so it always
 * works from the latest state, and runs on one thread, so two never interleave. A failed
 * reconciliation is retried after {@link #RETRY_SECONDS}.
 *
 * <p>A Service that already carries an ingress IP keeps it, so a restarted controller does not
 * move addresses. What it does not do, being an example: notice Services deleted while it was
 * down (their rows and EIP claims stay), or honour {@code spec.loadBalancerClass}.
 */
public final class ServiceLoadBalancerController implements AutoCloseable {
    /** Seconds before a failed reconciliation is tried again. */
    public static final long RETRY_SECONDS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(ServiceLoadBalancerController.class);
    /** The label by which Kubernetes ties an EndpointSlice to its Service. */
    private static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";
    private static final String BY_SERVICE = "by-service";
    private static final long WAIT_SECONDS = 10;

    private final KubernetesClient kube;
    private final LoadBalancerEngine engine;
    private final EipAllocator eips;
    private final Project project;
    private final SharedIndexInformer<Service> services;
    private final SharedIndexInformer<EndpointSlice> slices;
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "service-lb-controller");
        t.setDaemon(true);
        return t;
    });
    /** Service name to its EIP; used on the worker thread only. */
    private final Map<String, String> eipByService = new HashMap<>();

    /**
     * Creates the controller; nothing is watched until {@link #start()}.
     *
     * @param kube the Kubernetes client
     * @param engine a started engine writing to the project's Northbound database
     * @param eips an allocator on the engine's client
     * @param project the namespace to watch and where to expose its Services
     */
    public ServiceLoadBalancerController(KubernetesClient kube, LoadBalancerEngine engine, EipAllocator eips,
                                         Project project) {
        this.kube = kube;
        this.engine = engine;
        this.eips = eips;
        this.project = project;
        this.services = kube.services().inNamespace(project.namespace()).runnableInformer(0);
        this.slices = kube.discovery().v1().endpointSlices().inNamespace(project.namespace()).runnableInformer(0)
                .addIndexers(Map.of(BY_SERVICE, slice -> serviceOf(slice).map(List::of).orElse(List.of())));
    }

    /**
     * Starts watching and waits until both informers have listed the namespace.
     *
     * @return this controller
     */
    public ServiceLoadBalancerController start() {
        services.addEventHandler(onEvent(service -> Optional.of(service.getMetadata().getName())));
        slices.addEventHandler(onEvent(ServiceLoadBalancerController::serviceOf));
        services.start().toCompletableFuture().join();
        slices.start().toCompletableFuture().join();
        return this;
    }

    /** Stops watching. The load balancers stay, so a restarted controller takes over without an outage. */
    @Override
    public void close() {
        services.close();
        slices.close();
        worker.shutdownNow();
    }

    private <T> ResourceEventHandler<T> onEvent(Function<T, Optional<String>> serviceName) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                serviceName.apply(obj).ifPresent(name -> worker.execute(() -> reconcile(name)));
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                onAdd(newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                onAdd(obj);
            }
        };
    }

    private void reconcile(String name) {
        Service service = services.getStore().getByKey(project.namespace() + "/" + name);
        try {
            if (service != null && "LoadBalancer".equals(service.getSpec().getType())) {
                expose(service);
            } else if (eipByService.containsKey(name)) {
                withdraw(name);
            }
        } catch (Exception e) {
            LOG.warn("Service {}/{} not reconciled, retrying in {} s", project.namespace(), name, RETRY_SECONDS, e);
            worker.schedule(() -> reconcile(name), RETRY_SECONDS, TimeUnit.SECONDS);
        }
    }

    private void expose(Service service) throws Exception {
        String name = service.getMetadata().getName();
        Optional<String> published = ingressIp(service);
        String eip = eipByService.get(name);
        if (eip == null) {
            eip = published.isPresent() ? published.get() : allocate(name);
            eipByService.put(name, eip);
        }
        LoadBalancerSpec spec = ServiceLoadBalancers.spec(service, slices.getIndexer().byIndex(BY_SERVICE, name), eip, project);
        engine.upsert(project.owner(), spec).get(WAIT_SECONDS, TimeUnit.SECONDS);
        if (!published.equals(Optional.of(eip))) {
            publish(name, eip);
        }
    }

    private String allocate(String service) throws Exception {
        return eips.allocate(EipRequest.of(project.externalPort(), project.owner() + "/" + service))
                .get(WAIT_SECONDS, TimeUnit.SECONDS).getHostAddress();
    }

    private void publish(String service, String eip) {
        kube.services().inNamespace(project.namespace()).withName(service).editStatus(s -> new ServiceBuilder(s)
                .editOrNewStatus().withNewLoadBalancer().addNewIngress().withIp(eip).endIngress().endLoadBalancer()
                .endStatus().build());
    }

    private void withdraw(String name) throws Exception {
        engine.remove(project.owner(), ServiceLoadBalancers.specName(project.namespace(), name))
                .get(WAIT_SECONDS, TimeUnit.SECONDS);
        eips.release(eipByService.get(name)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        eipByService.remove(name);
    }

    private static Optional<String> ingressIp(Service service) {
        if (service.getStatus() == null || service.getStatus().getLoadBalancer() == null) {
            return Optional.empty();
        }
        return service.getStatus().getLoadBalancer().getIngress().stream().findFirst()
                .map(LoadBalancerIngress::getIp);
    }

    private static Optional<String> serviceOf(EndpointSlice slice) {
        return Optional.ofNullable(slice.getMetadata().getLabels()).map(labels -> labels.get(SERVICE_NAME_LABEL));
    }
}
