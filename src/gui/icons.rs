//! The app icon and the category icons, embedded PNGs from `assets/` decoded with the image
//! crate. Category icons are white on transparent so that one file serves both themes: they
//! are tinted with the theme's text colour when drawn.

use crate::core::catalog::PartKind;
use egui::{ColorImage, TextureHandle, TextureOptions};

/// The app icon (window icon, About box).
pub const APP_ICON_PNG: &[u8] = include_bytes!("../../assets/rigplan.png");

/// The PNG of a category icon.
#[must_use]
pub fn kind_png(kind: PartKind) -> &'static [u8] {
    match kind {
        PartKind::Gpu => include_bytes!("../../assets/icons/gpu.png"),
        PartKind::Cpu => include_bytes!("../../assets/icons/cpu.png"),
        PartKind::Motherboard => include_bytes!("../../assets/icons/motherboard.png"),
        PartKind::Memory => include_bytes!("../../assets/icons/memory.png"),
        PartKind::Storage => include_bytes!("../../assets/icons/storage.png"),
        PartKind::Psu => include_bytes!("../../assets/icons/psu.png"),
        PartKind::Cooler => include_bytes!("../../assets/icons/cooler.png"),
        PartKind::Chassis => include_bytes!("../../assets/icons/chassis.png"),
        PartKind::Nic => include_bytes!("../../assets/icons/nic.png"),
        PartKind::Switch => include_bytes!("../../assets/icons/switch.png"),
        PartKind::System => include_bytes!("../../assets/icons/system.png"),
    }
}

/// Decodes a PNG to RGBA pixels.
///
/// # Errors
/// The bytes are not a PNG the image crate can decode.
pub fn decode_png(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), image::ImageError> {
    let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)?.into_rgba8();
    let (w, h) = img.dimensions();
    Ok((w, h, img.into_raw()))
}

/// The window icon.
///
/// # Errors
/// The embedded PNG does not decode (a build defect; the window then opens without an icon).
pub fn window_icon() -> Result<egui::IconData, image::ImageError> {
    let (width, height, rgba) = decode_png(APP_ICON_PNG)?;
    Ok(egui::IconData { rgba, width, height })
}

fn texture(ctx: &egui::Context, name: &str, png: &[u8]) -> Option<TextureHandle> {
    let (w, h, rgba) = decode_png(png).ok()?;
    let image = ColorImage::from_rgba_unmultiplied([w as usize, h as usize], &rgba);
    Some(ctx.load_texture(name, image, TextureOptions::LINEAR))
}

/// Textures of the icons, uploaded once.
pub struct Icons {
    kinds: Vec<(PartKind, TextureHandle)>,
    pub app: Option<TextureHandle>,
}

impl Icons {
    /// Uploads every icon. An icon that fails to decode is left out (its place shows the
    /// kind's name only); the embedded files are checked by a test.
    #[must_use]
    pub fn load(ctx: &egui::Context) -> Self {
        let kinds = PartKind::ALL
            .into_iter()
            .filter_map(|k| texture(ctx, &format!("icon-{}", k.prefix()), kind_png(k)).map(|t| (k, t)))
            .collect();
        Self { kinds, app: texture(ctx, "icon-app", APP_ICON_PNG) }
    }

    /// No icons: every place shows its text only (a panel laid out in a test).
    #[must_use]
    pub fn none() -> Self {
        Self { kinds: Vec::new(), app: None }
    }

    /// The icon of a part kind, as an image of the given side, tinted.
    #[must_use]
    pub fn kind(&self, kind: PartKind, side: f32, tint: egui::Color32) -> Option<egui::Image<'static>> {
        self.kinds
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, t)| egui::Image::new(egui::load::SizedTexture::new(t.id(), egui::vec2(side, side))).tint(tint))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_icons_decode_at_their_sizes() {
        let (w, h, rgba) = decode_png(APP_ICON_PNG).unwrap();
        assert_eq!((w, h), (256, 256));
        assert_eq!(rgba.len(), 256 * 256 * 4);
        for kind in PartKind::ALL {
            let (w, h, px) = decode_png(kind_png(kind)).unwrap();
            assert_eq!((w, h), (32, 32), "{kind}");
            // Drawn, not blank: some pixels are opaque, some transparent.
            let alphas: Vec<u8> = px.chunks(4).filter_map(|p| p.get(3).copied()).collect();
            assert!(alphas.iter().any(|&a| a > 200), "{kind} has no opaque pixel");
            assert!(alphas.contains(&0), "{kind} has no transparent pixel");
        }
    }
}
