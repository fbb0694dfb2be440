/**
 * The heat map on a Leaflet map: a canvas over the tiles (under the controls) that shows the frame
 * of the current zoom (heat-map.ts), drawn once per zoom and only copied while the map pans.
 */
import { frameCovers, heatWindow, renderHeat, type HeatData, type HeatFrame } from './heat-map';
import type { L } from './map-setup';

export class HeatLayer {
  private readonly canvas: HTMLCanvasElement;
  private frame: HeatFrame | null = null;
  private readonly redraw = () => this.draw();

  constructor(
    private readonly map: L.Map,
    private readonly data: HeatData,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'heat-map-canvas';
    this.canvas.setAttribute('aria-hidden', 'true');
    Object.assign(this.canvas.style, { position: 'absolute', inset: '0', zIndex: '450', pointerEvents: 'none' });
    map.getContainer().appendChild(this.canvas);
    map.on('move zoomend resize viewreset', this.redraw);
    this.draw();
  }

  /** Copies the current zoom's frame onto the visible canvas, drawing the frame first when it is not there. */
  draw(): void {
    const size = this.map.getSize();
    const ratio = 1;
    if (this.canvas.width !== size.x * ratio || this.canvas.height !== size.y * ratio) {
      this.canvas.width = size.x * ratio;
      this.canvas.height = size.y * ratio;
      this.canvas.style.width = `${size.x}px`;
      this.canvas.style.height = `${size.y}px`;
    }
    const context = this.canvas.getContext('2d');
    if (!context) return;
    context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    const zoom = Math.round(this.map.getZoom());
    const topLeft = this.map.getPixelBounds().min;
    if (!topLeft) return;
    const view = { x: topLeft.x, y: topLeft.y, width: size.x, height: size.y };
    if (!this.frame || !frameCovers(this.frame, zoom, view)) {
      const center = { x: topLeft.x + size.x / 2, y: topLeft.y + size.y / 2 };
      const window = heatWindow(this.data, zoom, center);
      const canvas = renderHeat(this.data, zoom, window);
      this.frame = canvas ? { zoom, window, canvas } : null;
    }
    if (!this.frame) return;
    context.drawImage(this.frame.canvas, this.frame.window.x - topLeft.x, this.frame.window.y - topLeft.y);
  }

  remove(): void {
    this.map.off('move zoomend resize viewreset', this.redraw);
    this.canvas.remove();
    this.frame = null;
  }
}
