package dev.ovnj.cli;

import dev.ovnj.lb.spec.LoadBalancerSpec;

/**
 * A load balancer as a desired-state file declares it, with where it is written so that the
 * engine's validation errors can name a line.
 *
 * @param spec the spec
 * @param node its {@code loadBalancers[i]} element
 */
record DeclaredSpec(LoadBalancerSpec spec, SourceNode node) {

    /**
     * The line of a field the engine's validator names, such as {@code vips[1].backends[0]},
     * {@code options.affinityTimeout} or {@code externalIds.some.key}; the line of the closest
     * enclosing field that is written in the file when the field itself is not.
     *
     * @param field a {@link dev.ovnj.lb.spec.SpecError#field()}
     * @return a 1-based line
     */
    int lineOf(String field) {
        SourceNode at = node;
        String rest = field;
        while (!rest.isEmpty() && at.value() != null) {
            if (at.isObject()) {
                if (at.fields().containsKey(rest)) {
                    // Whole-remainder keys first: externalIds keys may themselves contain dots.
                    return at.fields().get(rest).line();
                }
                int end = nextBreak(rest);
                SourceNode next = at.fields().get(rest.substring(0, end));
                if (next == null) {
                    break;
                }
                at = next;
                rest = strip(rest.substring(end));
            } else if (at.isArray() && rest.startsWith("[")) {
                int close = rest.indexOf(']');
                int i = Integer.parseInt(rest.substring(1, close));
                if (i >= at.elements().size()) {
                    break;
                }
                at = at.elements().get(i);
                rest = strip(rest.substring(close + 1));
            } else {
                break;
            }
        }
        return at.line();
    }

    private static int nextBreak(String path) {
        int dot = path.indexOf('.');
        int bracket = path.indexOf('[');
        if (dot < 0) {
            return bracket < 0 ? path.length() : bracket;
        }
        return bracket < 0 ? dot : Math.min(dot, bracket);
    }

    private static String strip(String path) {
        return path.startsWith(".") ? path.substring(1) : path;
    }
}
