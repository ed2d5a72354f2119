package io.cdccompare.operations.page;

import java.util.List;
import java.util.Optional;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * How far the page open in a browser has got, read once the browser has rendered a frame after the
 * page's load: its document's ready state, the navigation's milestones and its first contentful
 * paint, in ms after the navigation started (the page's {@code performance.now()} clock).
 *
 * <p>{@code app}'s {@code ReportPageScaleIT} reads it to know that the page was loaded and its
 * content painted (no figure is asserted there); {@code bench}'s {@code ReportPageLoad} prints the
 * figures.
 *
 * @param readyState {@code document.readyState}: {@code complete} once the load has ended
 * @param domContentLoadedMs when the document was parsed and its scripts had run
 * @param loadMs when the load event had ended
 * @param firstContentfulPaintMs when the browser first painted content (text, an image, an SVG),
 *     empty when it painted none
 * @param frameAfterLoadMs when the first frame rendered after the load had been produced
 */
public record PageLoad(
    String readyState,
    double domContentLoadedMs,
    double loadMs,
    Optional<Double> firstContentfulPaintMs,
    double frameAfterLoadMs) {

  /** A frame, then a task after it: by then the frame has been produced. */
  private static final String AFTER_NEXT_FRAME =
      "var done=arguments[arguments.length-1];"
          + "requestAnimationFrame(function(){setTimeout(function(){"
          + "var n=performance.getEntriesByType('navigation')[0];"
          + "var fcp=performance.getEntriesByName('first-contentful-paint')[0];"
          + "done([document.readyState, n.domContentLoadedEventEnd, n.loadEventEnd,"
          + " fcp?fcp.startTime:null, performance.now()]);"
          + "},0);});";

  /**
   * Waits for the next frame of the page open in {@code browser} and reads its milestones; call it
   * right after {@code browser.get(url)}, which returns once the page's load has ended.
   */
  public static PageLoad afterNextFrame(ChromeDriver browser) {
    List<?> read = (List<?>) ((JavascriptExecutor) browser).executeAsyncScript(AFTER_NEXT_FRAME);
    return new PageLoad(
        (String) read.get(0),
        ((Number) read.get(1)).doubleValue(),
        ((Number) read.get(2)).doubleValue(),
        Optional.ofNullable((Number) read.get(3)).map(Number::doubleValue),
        ((Number) read.get(4)).doubleValue());
  }
}
