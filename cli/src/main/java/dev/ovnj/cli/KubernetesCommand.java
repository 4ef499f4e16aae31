package dev.ovnj.cli;

import dev.ovnj.kubernetes.ControllerEndpoints;
import dev.ovnj.kubernetes.ControllerSettings;
import dev.ovnj.kubernetes.OvnjKubernetesController;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Runs the Service LoadBalancer controller of {@code ovnj-kubernetes} until stopped. Every option
 * may also come from an {@code OVNJ_*} environment variable (the option's name in capitals,
 * dashes as underscores), which is how the Deployment under {@code deploy/} configures it.
 */
@Command(name = "kubernetes", mixinStandardHelpOptions = true, defaultValueProvider = EnvironmentDefaults.class,
        subcommands = KubernetesAdoptCommand.class,
        description = "Run the Kubernetes Service LoadBalancer controller: one OVN load balancer per Service of type "
                + "LoadBalancer, on an EIP of the router's external port, until interrupted. Each option also reads OVNJ_<NAME>.")
final class KubernetesCommand implements Callable<Integer> {
    /** The owner the controller writes as unless --owner (or OVNJ_OWNER) says otherwise. */
    static final String DEFAULT_OWNER = "ovnj-kubernetes";

    @Spec
    private CommandSpec spec;

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "Kubeconfig file (default: the in-cluster service account, else ~/.kube/config or $KUBECONFIG).")
    private Path kubeconfig;

    @Mixin
    private DatabaseOptions db;

    @Mixin
    private SouthboundOption sb;

    @Option(names = "--router", paramLabel = "NAME", description = "Logical_Router the load balancers of Services no EipPool serves "
            + "are attached to, for the namespaces of --router-namespaces only; with --external-port. Without both, only EipPools "
            + "give addresses and a Service no pool serves waits (NoPool).")
    private String router;

    @Option(names = "--router-namespaces", paramLabel = "NS[,NS...]", description = "The namespaces whose Services --router serves "
            + "when no EipPool does; '*' for every namespace (the behaviour before this option). Default: none (Services that already "
            + "hold an address there keep it).")
    private String routerNamespaces;

    @Option(names = "--exclude-addresses", paramLabel = "RANGE[,RANGE...]", description = "Addresses never given out, on any port "
            + "or pool: ranges a-b, CIDRs or addresses, comma-separated (router port addresses and static routes' next hops are never "
            + "given out anyway).")
    private String excludeAddresses;

    @Option(names = "--switch", paramLabel = "NAME", description = "Logical_Switch they are attached to.")
    private String logicalSwitch;

    @Option(names = "--group", paramLabel = "NAME", description = "Load_Balancer_Group they are attached through.")
    private String group;

    @Option(names = "--external-port", paramLabel = "NAME",
            description = "Logical_Router_Port of --router whose networks its EIPs come from (required with --router).")
    private String externalPort;

    @Option(names = "--load-balancer-class", paramLabel = "CLASS",
            description = "Serve only Services with this spec.loadBalancerClass (default: only those without one).")
    private String loadBalancerClass;

    @Option(names = "--namespaces", paramLabel = "NS[,NS...]", description = "Watch only these namespaces (default: all).")
    private String namespaces;

    @Mixin
    private OwnerOption owner;

    @Option(names = "--lease-namespace", paramLabel = "NS",
            description = "Namespace of the leader-election Lease; without it every replica writes, so run one.")
    private String leaseNamespace;

    @Option(names = "--lease-name", paramLabel = "NAME", defaultValue = "ovnj-kubernetes",
            description = "Name of the Lease (default: ${DEFAULT-VALUE}).")
    private String leaseName;

    @Option(names = "--lease-duration", paramLabel = "SECONDS", defaultValue = "15",
            description = "How long the Lease is valid without renewal (default: ${DEFAULT-VALUE}).")
    private double leaseDuration;

    @Option(names = "--lease-renew-deadline", paramLabel = "SECONDS", defaultValue = "10",
            description = "How long the holder keeps trying to renew before it gives up (default: ${DEFAULT-VALUE}).")
    private double leaseRenewDeadline;

    @Option(names = "--lease-retry-period", paramLabel = "SECONDS", defaultValue = "1",
            description = "How often the holder renews and a standby tries to take over (default: ${DEFAULT-VALUE}); "
                    + "a Lease given up at stop is taken within about twice this.")
    private double leaseRetryPeriod;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve /metrics (Prometheus), /healthz and /readyz over HTTP on this port (0: a free one; default: none).")
    private Integer metricsPort;

    @Option(names = "--server-side-apply", paramLabel = "BOOL", defaultValue = "true",
            description = "Patch Services with server-side apply (default: ${DEFAULT-VALUE}); false uses JSON patches.")
    private boolean serverSideApply;

    @Override
    public Integer call() throws Exception {
        ControllerSettings settings = settings();
        if (settings.router().isPresent() && settings.routerNamespaces().isEmpty()) {
            System.err.println("warning: --router " + settings.router().get() + " serves no namespace without --router-namespaces: "
                    + "Services no EipPool serves wait (NoPool); those holding an address there keep it. Name the namespaces, or '*' "
                    + "for every one (docs/kubernetes.md, \"Tenancy\")");
        }
        // The session closes the engine and the clients without waiting for Netty's shared thread
        // (up to a second): the process exits right after, and a stop is to take well under 2 s.
        try (ShutdownSignal signal = ShutdownSignal.install();
             NorthboundSession session = sb.remotes().isEmpty() ? NorthboundSession.open(db)
                     : NorthboundSession.open(db, sb.remotes().get(), UnaryOperator.identity())) {
            PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            new JvmMemoryMetrics().bindTo(meters);
            new ProcessorMetrics().bindTo(meters);
            // Closed in reverse: the controller first, which stops reconciling and gives the Lease up
            // while the Kubernetes client is still open; the session (engine and clients) last.
            try (KubernetesClient kube = new KubernetesClientBuilder().withConfig(kubeConfig()).build();
                 OvnjKubernetesController controller = OvnjKubernetesController.builder(kube, session.client(), session.engine(), settings)
                         .meterRegistry(meters).leaseTiming(seconds(leaseDuration), seconds(leaseRenewDeadline), seconds(leaseRetryPeriod))
                         .build();
                 ControllerEndpoints endpoints = metricsPort == null ? null
                         : ControllerEndpoints.start(new InetSocketAddress(metricsPort), meters, controller)) {
                controller.start();
                System.out.println("serving Services of type LoadBalancer " + settings.router().map(r -> "on router " + r
                        + " for namespaces " + (settings.routerNamespaces().isEmpty() ? "none" : String.join(",",
                        new java.util.TreeSet<>(settings.routerNamespaces()))) + " and on EipPools").orElse("on EipPools only") + " (owner "
                        + settings.owner() + ", identity " + controller.identity()
                        + (endpoints == null ? "" : ", metrics and probes on port " + endpoints.address().getPort()) + "); Ctrl-C stops");
                System.out.flush();
                while (!signal.await(Duration.ofHours(1))) {
                    // Run until a signal asks to stop.
                }
            }
        }
        return 0;
    }

    /** The settings from the options, each missing one named with its environment variable. */
    ControllerSettings settings() {
        if (present(router) || present(externalPort)) {
            require(router, "--router", "OVNJ_ROUTER", "with --external-port");
            require(externalPort, "--external-port", "OVNJ_EXTERNAL_PORT", "with --router");
        } else if (present(routerNamespaces) || present(logicalSwitch) || present(group)) {
            throw new ParameterException(spec.commandLine(), "--router-namespaces, --switch and --group need --router and --external-port");
        }
        if (present(logicalSwitch) && present(group)) {
            throw new ParameterException(spec.commandLine(), "--switch and --group exclude each other: attach directly or through a group");
        }
        ControllerSettings s = (present(router) ? ControllerSettings.of(router, externalPort).withRouterNamespaces(new java.util.LinkedHashSet<>(list(routerNamespaces)))
                : ControllerSettings.poolsOnly()).withOwner(owner.name().orElse(DEFAULT_OWNER)).withServerSideApply(serverSideApply);
        if (present(excludeAddresses)) {
            try {
                s = s.withExcludeAddresses(List.copyOf(list(excludeAddresses)));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--exclude-addresses: " + e.getMessage());
            }
        }
        if (present(logicalSwitch)) {
            s = s.withSwitch(logicalSwitch);
        }
        if (present(group)) {
            s = s.withGroup(group);
        }
        if (present(loadBalancerClass)) {
            s = s.withLoadBalancerClass(loadBalancerClass);
        }
        if (present(namespaces)) {
            s = s.withNamespaces(new java.util.LinkedHashSet<>(list(namespaces)));
        }
        if (present(leaseNamespace)) {
            s = s.withLease(leaseNamespace, leaseName);
        }
        if (!(leaseRetryPeriod > 0 && leaseRetryPeriod < leaseRenewDeadline && leaseRenewDeadline < leaseDuration)) {
            throw new ParameterException(spec.commandLine(), "--lease-retry-period (" + leaseRetryPeriod + ") < --lease-renew-deadline ("
                    + leaseRenewDeadline + ") < --lease-duration (" + leaseDuration + ") must hold, all positive");
        }
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65535)) {
            throw new ParameterException(spec.commandLine(), "--metrics-port " + metricsPort + ": not a port (0-65535)");
        }
        return s;
    }

    private static Duration seconds(double value) {
        return Duration.ofMillis(Math.round(value * 1000));
    }

    /** The database options, for the adopt subcommand. */
    DatabaseOptions database() {
        return db;
    }

    Config kubeConfig() throws IOException {
        if (kubeconfig == null) {
            return Config.autoConfigure(null);
        }
        if (!Files.isReadable(kubeconfig)) {
            throw new CliFailure("--kubeconfig " + kubeconfig + ": no such readable file");
        }
        return Config.fromKubeconfig(Files.readString(kubeconfig));
    }

    private void require(String value, String option, String env, String with) {
        if (!present(value)) {
            throw new ParameterException(spec.commandLine(), option + " (or " + env + ") is required " + with);
        }
    }

    /** A comma-separated option's entries, trimmed, blanks dropped, in order. */
    private static List<String> list(String value) {
        if (value == null) {
            return List.of();
        }
        return Arrays.stream(value.split(",")).map(String::trim).filter(n -> !n.isEmpty()).distinct().toList();
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }
}
