package dev.ovnj.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class PlotsTest {
    static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    /** Every x/y/cx/cy coordinate and path point lies inside the drawing. */
    static void insideViewBox(String svg) {
        Matcher size = Pattern.compile("viewBox=\"0 0 (\\d+) (\\d+)\"").matcher(svg);
        assertThat(size.find()).isTrue();
        double w = Double.parseDouble(size.group(1));
        double h = Double.parseDouble(size.group(2));
        Matcher attr = Pattern.compile(" (?:x|x1|x2|cx)=\"(-?[0-9.]+)\"").matcher(svg);
        while (attr.find()) {
            assertThat(Double.parseDouble(attr.group(1))).isBetween(0.0, w);
        }
        attr = Pattern.compile(" (?:y|y1|y2|cy)=\"(-?[0-9.]+)\"").matcher(svg);
        while (attr.find()) {
            assertThat(Double.parseDouble(attr.group(1))).isBetween(0.0, h);
        }
        Matcher pt = Pattern.compile("[ML](-?[0-9.]+),(-?[0-9.]+)").matcher(svg);
        while (pt.find()) {
            assertThat(Double.parseDouble(pt.group(1))).isBetween(0.0, w);
            assertThat(Double.parseDouble(pt.group(2))).isBetween(0.0, h);
        }
    }

    @Test
    void lineChartOnALogAxisIsWellFormedAndNamesItsSeries() throws Exception {
        String svg = Svg.lines("scale", "specs", "ms", true, List.of(
                new Svg.Series("p50", new double[] {1_000, 10_000, 100_000}, new double[] {1.2, 1.3, 1.5}),
                new Svg.Series("p99 <x>", new double[] {1_000, 10_000, 100_000}, new double[] {3, 3.5, 4.1})));
        assertThat(parse(svg).getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(svg).contains(">p50<").contains("p99 &lt;x&gt;").contains(">1k<").contains(">100k<");
        assertThat(svg.split("<path ", -1)).hasSize(3);
        insideViewBox(svg);
    }

    @Test
    void cdfEndsAtOneAndClipsTheTail() throws Exception {
        double[] samples = new double[1000];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = i == samples.length - 1 ? 10_000 : i / 100.0;
        }
        String svg = Svg.cdf("incremental", "ms", List.of(new Svg.Series("ovnj-engine", samples, new double[0])), 99.9);
        parse(svg);
        assertThat(svg).contains("ovnj-engine (n=1000)");
        insideViewBox(svg);
    }

    @Test
    void barsMarkTheFloor() throws Exception {
        String svg = Svg.bars("bulk-create", "seconds", List.of(new Svg.Bar("ovnj-writeonly", 2.7),
                new Svg.Bar("python-idl", 14.5)), 2.55, "floor");
        parse(svg);
        assertThat(svg).contains(">ovnj-writeonly<").contains(">14.5<").contains("stroke-dasharray").contains(">floor<");
        insideViewBox(svg);
    }

    @Test
    void noDataGivesAnEmptyButValidChart() throws Exception {
        parse(Svg.lines("x", "x", "y", true, List.of()));
        parse(Svg.cdf("x", "ms", List.of(), 99));
        parse(Svg.bars("x", "s", List.of(), Double.NaN, ""));
    }

    @Test
    void writesOnlyThePlotsTheRunHasDataFor(@TempDir Path dir) throws Exception {
        Results r = ResultsTest.sample();
        for (String c : List.of("ovnj-engine-1k", "ovnj-engine-10k", "ovnj-engine-100k")) {
            r.add("scale", c, "wall_s", Plots.specsOf(c) / 10_000.0);
            r.add("scale", c, "p50_ms", 1.0);
            r.add("scale", c, "p99_ms", 3.0);
            r.samples("scale", c, new double[] {3, 1, 2});
        }
        r.samples("incremental", "ovnj-engine", new double[] {1, 2, 3});
        List<Path> written = Plots.write(r, dir);
        assertThat(written).extracting(p -> p.getFileName().toString()).containsExactlyInAnyOrder(
                "scale-latency.svg", "scale-converge.svg", "latency-incremental.svg", "peers-bulk-create.svg");
        for (Path p : written) {
            parse(Files.readString(p));
        }
        assertThat(Files.readString(dir.resolve("latency-incremental.svg"))).contains("ovnj-engine-100k").contains("ovnj-engine (n=3)");
    }

    /** The soak's windows become the x axis in window order, one series per resource. */
    @Test
    void soakWindowsArePlottedInOrder(@TempDir Path dir) throws Exception {
        Results r = ResultsTest.sample();
        for (int w : new int[] {3, 1, 2}) {
            r.add("soak", Soak.windowClient(w), "heap_mb", 100 + w);
            r.add("soak", Soak.windowClient(w), "threads", 30);
            r.add("soak", Soak.windowClient(w), "fds", 60);
            r.add("soak", Soak.windowClient(w), "repair_p99_ms", 4.0 * w);
        }
        r.add("soak", Soak.CLIENT, "futures", 10);

        List<Path> written = Plots.write(r, dir);

        assertThat(written).extracting(p -> p.getFileName().toString()).contains("soak-resources.svg", "soak-repair.svg");
        String resources = Files.readString(dir.resolve("soak-resources.svg"));
        parse(resources);
        insideViewBox(resources);
        assertThat(resources).contains("heap after GC (MB)", "live threads", "open file descriptors");
        // Windows sorted 1, 2, 3: the heap line rises from left to right (SVG y grows downwards).
        Matcher path = Pattern.compile("<path d=\"M([0-9.]+),([0-9.]+) L([0-9.]+),([0-9.]+) L([0-9.]+),([0-9.]+)").matcher(resources);
        assertThat(path.find()).isTrue();
        assertThat(Double.parseDouble(path.group(1))).isLessThan(Double.parseDouble(path.group(3)));
        assertThat(Double.parseDouble(path.group(2))).isGreaterThan(Double.parseDouble(path.group(4)));
        parse(Files.readString(dir.resolve("soak-repair.svg")));
    }

    @Test
    void scaleLabelsRoundTrip() {
        assertThat(Scenarios.label(100_000)).isEqualTo("100k");
        assertThat(Scenarios.label(250)).isEqualTo("250");
        assertThat(Plots.specsOf("ovnj-engine-" + Scenarios.label(10_000))).isEqualTo(10_000);
        assertThat(Plots.specsOf("ovnj-engine-250")).isEqualTo(250);
    }

    @Test
    void sizesOverrideOneNameOrTheScaleCurveAndRejectUnknownNames() {
        Scenarios.Sizes s = Scenarios.Sizes.full().with("bulk=2000").with("scale=1000,2000");
        assertThat(s.get("bulk")).isEqualTo(2000);
        assertThat(s.get("sync")).isEqualTo(50_000);
        assertThat(s.scale()).containsExactly(1000, 2000);
        assertThatThrownBy(() -> s.with("bulkk=1")).hasMessageContaining("unknown size bulkk");
    }
}
