//! Saving a region of a screenshot as a PNG ("Save as PNG" under each plot).

use std::path::Path;

/// Crops `rect` (in points) out of a screenshot taken at `pixels_per_point` and writes it as a
/// PNG. The region is clipped to the image, so a plot partly scrolled out of view saves what
/// is visible.
///
/// # Errors
/// The region is empty after clipping, or the file cannot be written (the message names it).
pub fn save_region(
    image: &egui::ColorImage,
    rect: egui::Rect,
    pixels_per_point: f32,
    path: &Path,
) -> Result<(), String> {
    let (width, height, rgba) = crop(image, rect, pixels_per_point)
        .ok_or_else(|| format!("{}: the plot is not on screen, so there is nothing to save", path.display()))?;
    image::save_buffer(path, &rgba, width, height, image::ExtendedColorType::Rgba8)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The pixels of `rect` (points) in `image`, as straight-alpha RGBA, clipped to the image.
/// None when nothing of the region is inside the image.
#[must_use]
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "pixel coordinates clamped to the image size before the cast"
)]
pub fn crop(image: &egui::ColorImage, rect: egui::Rect, pixels_per_point: f32) -> Option<(u32, u32, Vec<u8>)> {
    let [w, h] = image.size;
    let to_px = |v: f32, max: usize| -> usize {
        if v.is_finite() && v > 0.0 { ((v * pixels_per_point).round() as usize).min(max) } else { 0 }
    };
    let (x0, x1) = (to_px(rect.min.x, w), to_px(rect.max.x, w));
    let (y0, y1) = (to_px(rect.min.y, h), to_px(rect.max.y, h));
    if x1 <= x0 || y1 <= y0 {
        return None;
    }
    let mut rgba = Vec::with_capacity((x1 - x0) * (y1 - y0) * 4);
    for y in y0..y1 {
        for x in x0..x1 {
            let c = image.pixels.get(y * w + x).copied().unwrap_or_default();
            rgba.extend_from_slice(&c.to_srgba_unmultiplied());
        }
    }
    Some((u32::try_from(x1 - x0).ok()?, u32::try_from(y1 - y0).ok()?, rgba))
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{Color32, ColorImage, Rect, pos2};

    fn image() -> ColorImage {
        // 4 × 2 pixels: the pixel at (x, y) has red = 10·x + y.
        let pixels = (0..2).flat_map(|y| (0..4).map(move |x| Color32::from_rgb(10 * x + y, 0, 0))).collect();
        ColorImage { size: [4, 2], pixels, ..ColorImage::default() }
    }

    #[test]
    fn crops_in_pixels_and_clips_to_the_image() {
        // At 2 pixels per point, points (1,0)–(2,1) are pixels (2,0)–(4,2).
        let (w, h, px) = crop(&image(), Rect::from_min_max(pos2(1.0, 0.0), pos2(2.0, 1.0)), 2.0).unwrap();
        assert_eq!((w, h), (2, 2));
        let reds: Vec<u8> = px.chunks(4).map(|p| p[0]).collect();
        assert_eq!(reds, vec![20, 30, 21, 31]);
        // Partly outside: clipped.
        let (w, h, _) = crop(&image(), Rect::from_min_max(pos2(-5.0, -5.0), pos2(100.0, 100.0)), 1.0).unwrap();
        assert_eq!((w, h), (4, 2));
        // Wholly outside: nothing.
        assert!(crop(&image(), Rect::from_min_max(pos2(10.0, 10.0), pos2(20.0, 20.0)), 1.0).is_none());
    }

    #[test]
    fn saves_a_png_that_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plot.png");
        save_region(&image(), Rect::from_min_max(pos2(0.0, 0.0), pos2(4.0, 2.0)), 1.0, &path).unwrap();
        let back = image::open(&path).unwrap().into_rgba8();
        assert_eq!(back.dimensions(), (4, 2));
        assert_eq!(back.get_pixel(3, 1).0, [31, 0, 0, 255]);
    }
}
